//! The small arithmetic of legibility: number formats (`#,##0`, `0.0%`, `$#,##0.00`), nice
//! axis ticks (steps of 1, 2, 2.5 or 5 × 10ⁿ), and the real width of a label in the bundled
//! face, so wrapping and truncation are decided by what will be drawn.

use std::sync::OnceLock;

/// A number format: Excel's common shapes, enough for axes and labels.
#[derive(Debug, Clone, PartialEq)]
pub struct NumFmt {
    prefix: String,
    suffix: String,
    /// Digits after the decimal point; `None` = as many as the values need.
    decimals: Option<usize>,
    thousands: bool,
    percent: bool,
}

impl NumFmt {
    /// The format with no code given: thousands separators, decimals from the data.
    pub fn auto() -> NumFmt {
        NumFmt { prefix: String::new(), suffix: String::new(), decimals: None, thousands: true, percent: false }
    }

    /// Parses an Excel-like code (first section only; quotes and backslashes are literal text).
    pub fn parse(code: &str) -> NumFmt {
        let code = code.split(';').next().unwrap_or_default();
        let mut prefix = String::new();
        let mut suffix = String::new();
        let mut body = String::new();
        let mut in_quote = false;
        let mut escaped = false;
        for c in code.chars() {
            let literal = if escaped {
                escaped = false;
                Some(c)
            } else if c == '"' {
                in_quote = !in_quote;
                None
            } else if in_quote {
                Some(c)
            } else if c == '\\' {
                escaped = true;
                None
            } else if matches!(c, '#' | '0' | ',' | '.' | '?') && suffix.is_empty() {
                body.push(c);
                None
            } else {
                Some(c)
            };
            if let Some(c) = literal {
                if body.is_empty() { prefix.push(c) } else { suffix.push(c) }
            }
        }
        let percent = suffix.contains('%') || prefix.contains('%');
        let decimals = body.split_once('.').map(|(_, d)| d.chars().filter(|c| matches!(c, '0' | '#' | '?')).count());
        NumFmt {
            prefix: prefix.replace(['[', ']'], ""),
            suffix,
            decimals: Some(decimals.unwrap_or(0)),
            thousands: body.contains(','),
            percent,
        }
    }

    /// Whether values are shown as percentages (×100).
    pub fn is_percent(&self) -> bool {
        self.percent
    }

    /// `value` formatted; `step` (the axis step) decides decimals when the format leaves them open.
    pub fn format(&self, value: f64, step: Option<f64>) -> String {
        let v = if self.percent { value * 100.0 } else { value };
        let decimals = self.decimals.unwrap_or_else(|| match step {
            Some(s) if s > 0.0 => decimals_for(if self.percent { s * 100.0 } else { s }),
            _ => decimals_for_value(v),
        });
        let s = format!("{:.*}", decimals, v.abs());
        let (int, frac) = s.split_once('.').map_or((s.as_str(), ""), |(a, b)| (a, b));
        let int = if self.thousands { group(int) } else { int.to_string() };
        let num = if frac.is_empty() { int } else { format!("{int}.{frac}") };
        let negative = v < 0.0 && num.chars().any(|c| c.is_ascii_digit() && c != '0');
        format!("{}{}{num}{}", if negative { "−" } else { "" }, self.prefix, self.suffix)
    }

    /// The format as an Excel/OOXML code (for a native chart's `c:numFmt`).
    pub fn code(&self) -> String {
        let mut c = String::new();
        if !self.prefix.is_empty() {
            c.push_str(&format!("\"{}\"", self.prefix));
        }
        c.push_str(if self.thousands { "#,##0" } else { "0" });
        if let Some(d) = self.decimals.filter(|d| *d > 0) {
            c.push('.');
            c.push_str(&"0".repeat(d));
        }
        if self.percent {
            c.push('%');
        } else if !self.suffix.is_empty() {
            c.push_str(&format!("\"{}\"", self.suffix));
        }
        if self.decimals.is_none() && !self.thousands { "General".into() } else { c }
    }
}

fn group(int: &str) -> String {
    let bytes = int.as_bytes();
    let mut out = String::with_capacity(int.len() + int.len() / 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 && (bytes.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*b as char);
    }
    out
}

fn decimals_for(step: f64) -> usize {
    let mut d = 0;
    let mut s = step.abs();
    while d < 6 && (s - s.round()).abs() > 1e-9 * s.max(1.0) {
        s *= 10.0;
        d += 1;
    }
    d
}

fn decimals_for_value(v: f64) -> usize {
    if v == v.trunc() {
        0
    } else if v.abs() >= 100.0 {
        1
    } else {
        2
    }
}

/// Nice ticks covering `lo..=hi` with about `target` steps: `(min, max, step)`.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> (f64, f64, f64) {
    let (mut lo, mut hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    if (hi - lo).abs() < 1e-12 {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        lo -= pad;
        hi += pad;
        if lo < 0.0 && lo + pad >= 0.0 {
            lo = 0.0;
        }
    }
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw * 0.999).unwrap_or(10.0 * mag);
    let min = (lo / step + 1e-9).floor() * step;
    let max = (hi / step - 1e-9).ceil() * step;
    (min, max, step)
}

/// The tick values `min, min+step, …, max`.
pub fn tick_values(min: f64, max: f64, step: f64) -> Vec<f64> {
    let n = ((max - min) / step).round() as usize;
    (0..=n.min(100)).map(|i| clean(min + step * i as f64)).collect()
}

fn clean(v: f64) -> f64 {
    let r = (v * 1e9).round() / 1e9;
    if r == 0.0 { 0.0 } else { r }
}

struct Metrics {
    advances: Vec<(char, u16)>,
    units: f32,
    fallback: u16,
}

fn metrics() -> &'static Metrics {
    static M: OnceLock<Metrics> = OnceLock::new();
    M.get_or_init(|| match ttf_parser::Face::parse(folio_fonts::Face::Sans.bytes(), 0) {
        Ok(face) => {
            let units = face.units_per_em() as f32;
            let advances = (0x20u32..0x250)
                .filter_map(char::from_u32)
                .map(|c| (c, face.glyph_index(c).and_then(|g| face.glyph_hor_advance(g)).unwrap_or(0)))
                .collect();
            Metrics { advances, units, fallback: (units * 0.62) as u16 }
        }
        Err(_) => Metrics { advances: Vec::new(), units: 1000.0, fallback: 620 },
    })
}

/// The width of `text` in DejaVu Sans at `size` px (bold ≈ 8 % wider).
pub fn text_width(text: &str, size: f32, bold: bool) -> f32 {
    let m = metrics();
    let units: u32 = text
        .chars()
        .map(|c| m.advances.binary_search_by_key(&c, |(k, _)| *k).map(|i| m.advances[i].1).unwrap_or(m.fallback) as u32)
        .sum();
    units as f32 / m.units * size * if bold { 1.08 } else { 1.0 }
}

/// `text` cut to fit `width` at `size`, ending with an ellipsis when cut.
pub fn truncate(text: &str, size: f32, width: f32) -> String {
    if text_width(text, size, false) <= width {
        return text.to_string();
    }
    let mut out: String = String::new();
    for c in text.chars() {
        let mut next = out.clone();
        next.push(c);
        if text_width(&format!("{next}…"), size, false) > width {
            break;
        }
        out = next;
    }
    format!("{}…", out.trim_end())
}

/// `text` wrapped at spaces into at most `lines` lines of `width`; the last one truncated.
pub fn wrap(text: &str, size: f32, width: f32, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let candidate = if line.is_empty() { w.to_string() } else { format!("{line} {w}") };
        if text_width(&candidate, size, false) <= width || line.is_empty() {
            line = candidate;
        } else {
            out.push(std::mem::take(&mut line));
            if out.len() == lines - 1 {
                line = words[i..].join(" ");
                break;
            }
            line = w.to_string();
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push(line);
    }
    out.into_iter().map(|l| truncate(&l, size, width)).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn formats_follow_their_codes() {
        for (code, v, want) in [
            ("#,##0", 1234567.4, "1,234,567"),
            ("0.0%", 0.1234, "12.3%"),
            ("$#,##0.00", -1234.5, "−$1,234.50"),
            ("0", 3.6, "4"),
            ("#,##0.0\" k\"", 12.34, "12.3 k"),
        ] {
            assert_eq!(NumFmt::parse(code).format(v, None), want, "{code}");
        }
        assert_eq!(NumFmt::auto().format(2500.0, Some(500.0)), "2,500");
        assert_eq!(NumFmt::auto().format(0.25, Some(0.05)), "0.25");
        assert_eq!(NumFmt::parse("0.0%").code(), "0.0%");
        assert_eq!(NumFmt::parse("$#,##0").code(), "\"$\"#,##0");
    }

    #[test]
    fn ticks_are_nice_and_cover_the_data() {
        for (lo, hi, want) in
            [(0.0, 97.0, (0.0, 100.0, 20.0)), (-13.0, 42.0, (-20.0, 60.0, 20.0)), (0.0, 0.0, (0.0, 1.0, 0.2))]
        {
            assert_eq!(nice_ticks(lo, hi, 5), want, "{lo}..{hi}");
        }
        assert_eq!(tick_values(0.0, 1.0, 0.2).len(), 6);
    }

    #[test]
    fn labels_wrap_and_truncate_by_real_width() {
        let w = text_width("Hello", 12.0, false);
        assert!(w > 25.0 && w < 45.0, "{w}");
        let t = truncate("A very long category label indeed", 12.0, 60.0);
        assert!(t.ends_with('…') && text_width(&t, 12.0, false) <= 60.0, "{t}");
        let lines = wrap("North America and Europe combined region", 12.0, 90.0, 2);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[1].ends_with('…'), "{lines:?}");
    }
}
