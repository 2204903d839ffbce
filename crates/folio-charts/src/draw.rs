//! The SVG writer: a chart spec and a size in, one deterministic SVG string out (coordinates
//! rounded to 0.1 px, no ids, no timestamps — the same spec gives the same bytes).
//!
//! Layout is decided by measuring, top to bottom: the title (wrapped to two lines), the legend
//! (packed into rows under the plot, or a column on the right, truncated with an ellipsis), the
//! value axis' widest tick label, and the category labels — kept on one line when they fit their
//! slot, else wrapped to two lines, else turned 45° and truncated; past one label per
//! [`MIN_SLOT`] only every k-th is shown. Font sizes follow the output size within
//! [`MIN_FONT`]..=[`MAX_FONT`] px so a chart is readable where it is placed.

use std::fmt::Write as _;

use crate::format::{NumFmt, nice_ticks, text_width, tick_values, truncate, wrap};
use crate::spec::{ChartSpec, ChartType, Legend, SeriesKind};

/// Okabe–Ito, the colour-blind-safe palette (yellow last: weak on white).
pub const PALETTE: [&str; 8] = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"];
/// The smallest font size used, in px.
pub const MIN_FONT: f32 = 10.0;
/// The largest base font size, in px.
pub const MAX_FONT: f32 = 16.0;
/// The narrowest category slot that still gets its own label, in multiples of the font size.
pub const MIN_SLOT: f32 = 1.6;

const INK: &str = "#1A1A2E";
const MUTED: &str = "#4B5563";
const GRID: &str = "#E5E7EB";
const FONT: &str = "DejaVu Sans";

/// A drawn chart.
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The SVG document.
    pub svg: String,
    /// What was skipped or shortened, one sentence each.
    pub warnings: Vec<String>,
}

fn f(v: f32) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() { format!("{}", r as i64) } else { format!("{r:.1}") }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

struct Canvas {
    out: String,
}

#[derive(Clone, Copy)]
enum Anchor {
    Start,
    Middle,
    End,
}

impl Canvas {
    #[allow(clippy::too_many_arguments)]
    fn text(&mut self, x: f32, y: f32, s: &str, size: f32, anchor: Anchor, fill: &str, extra: &str) {
        let a = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = writeln!(
            self.out,
            r#"<text x="{}" y="{}" font-size="{}" text-anchor="{a}" fill="{fill}"{extra}>{}</text>"#,
            f(x),
            f(y),
            f(size),
            esc(s)
        );
    }
    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: &str) {
        let (y, h) = if h < 0.0 { (y + h, -h) } else { (y, h) };
        let _ =
            writeln!(self.out, r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"/>"#, f(x), f(y), f(w), f(h));
    }
    fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, stroke: &str, width: f32) {
        let _ = writeln!(
            self.out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}"/>"#,
            f(x1),
            f(y1),
            f(x2),
            f(y2),
            f(width)
        );
    }
    fn path(&mut self, d: &str, fill: &str, stroke: &str, width: f32, extra: &str) {
        let _ =
            writeln!(self.out, r#"<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{}"{extra}/>"#, f(width));
    }
    fn circle(&mut self, x: f32, y: f32, r: f32, fill: &str) {
        let _ = writeln!(
            self.out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#FFFFFF" stroke-width="1"/>"##,
            f(x),
            f(y),
            f(r)
        );
    }
}

/// A linear scale from values to pixels.
#[derive(Clone, Copy)]
struct Scale {
    min: f64,
    max: f64,
    step: f64,
    p0: f32,
    p1: f32,
}

impl Scale {
    fn at(&self, v: f64) -> f32 {
        let t = if self.max > self.min { (v - self.min) / (self.max - self.min) } else { 0.5 };
        self.p0 + (self.p1 - self.p0) * t as f32
    }
    fn ticks(&self) -> Vec<f64> {
        tick_values(self.min, self.max, self.step)
    }
}

fn span(values: impl Iterator<Item = f64>, include_zero: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if include_zero {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    (lo, hi)
}

/// Category label layout.
enum CatLabels {
    Lines(Vec<Vec<String>>),
    Rotated(Vec<String>),
}

struct Ctx<'a> {
    spec: &'a ChartSpec,
    w: f32,

    fs: f32,
    fmt: NumFmt,
    warnings: Vec<String>,
    c: Canvas,
}

/// Draws `spec` at `width`×`height` CSS pixels.
pub fn draw(spec: &ChartSpec, width: u32, height: u32) -> Drawn {
    let (w, h) = (width as f32, height as f32);
    let fs = (w.min(h * 1.6) / 60.0).clamp(MIN_FONT, MAX_FONT);
    let fmt = spec.number_format.as_deref().map(NumFmt::parse).unwrap_or_else(NumFmt::auto);
    let mut cx = Ctx { spec, w, fs, fmt, warnings: Vec::new(), c: Canvas { out: String::new() } };
    let _ = writeln!(
        cx.c.out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}">"#
    );
    cx.c.rect(0.0, 0.0, w, h, "#FFFFFF");
    cx.note_gaps();
    let pad = fs;
    let mut top = pad * 0.8;
    if let Some(title) = &spec.title {
        let ts = fs * 1.4;
        // Measured as regular text 12 % larger: DejaVu Sans Bold is that much wider.
        for line in wrap(title, ts * 1.12, w - 2.0 * pad, 2) {
            top += ts * 1.15;
            cx.c.text(w / 2.0, top, &line, ts, Anchor::Middle, INK, r#" font-weight="bold""#);
        }
        top += fs * 0.6;
    }
    let (left, mut right, mut bottom) = (pad, w - pad, h - pad * 0.8);
    let names: Vec<String> = if spec.kind == ChartType::Pie {
        spec.categories.clone()
    } else {
        spec.series.iter().map(|s| s.name.clone()).collect()
    };
    let show_legend = spec.legend != Legend::None && (names.len() > 1 || spec.kind == ChartType::Pie);
    if show_legend {
        match spec.legend {
            Legend::Right => right = cx.legend_right(&names, top, bottom),
            _ => bottom = cx.legend_bottom(&names, left, right, bottom),
        }
    }
    if spec.kind == ChartType::Pie {
        cx.pie(left, top, right, bottom);
    } else {
        cx.axes(left, top + fs, right, bottom);
    }
    cx.c.out.push_str("</svg>\n");
    Drawn { svg: cx.c.out, warnings: cx.warnings }
}

impl Ctx<'_> {
    fn color(&self, i: usize) -> &'static str {
        PALETTE[i % PALETTE.len()]
    }

    fn note_gaps(&mut self) {
        let pie = self.spec.kind == ChartType::Pie;
        for (si, s) in self.spec.series.iter().enumerate() {
            if pie && si > 0 {
                self.warnings.push(format!("a pie shows one series: {:?} is not drawn", s.name));
                continue;
            }
            let empty: Vec<String> = s
                .values
                .iter()
                .enumerate()
                .filter(|(i, v)| v.is_none() || s.x.as_ref().is_some_and(|x| x.get(*i).copied().flatten().is_none()))
                .map(|(i, _)| match self.spec.categories.get(i) {
                    Some(c) if !c.is_empty() => format!("{c:?}"),
                    _ => format!("point {}", i + 1),
                })
                .collect();
            if !empty.is_empty() {
                self.warnings.push(format!(
                    "series {:?} has {} empty value(s) (null or NaN), skipped: {}",
                    s.name,
                    empty.len(),
                    empty.join(", ")
                ));
            }
        }
    }

    fn legend_items(&self, names: &[String], max_w: f32) -> Vec<(String, f32)> {
        let fs = self.fs * 0.9;
        names
            .iter()
            .map(|n| {
                let t = truncate(n, fs, max_w);
                let w = fs * 1.6 + text_width(&t, fs, false);
                (t, w)
            })
            .collect()
    }

    fn swatch(&mut self, i: usize, x: f32, y: f32, label: &str) {
        let fs = self.fs * 0.9;
        let line = self.spec.kind == ChartType::Line
            || self.spec.kind == ChartType::Scatter
            || (self.spec.kind == ChartType::Combo
                && self.spec.series.get(i).is_some_and(|s| s.kind == SeriesKind::Line));
        let color = self.color(i);
        if line {
            self.c.line(x, y - fs * 0.35, x + fs, y - fs * 0.35, color, 2.5);
        } else {
            self.c.rect(x, y - fs * 0.8, fs, fs * 0.8, color);
        }
        let suffix = match self.spec.series.get(i) {
            Some(s) if s.secondary => " (right axis)",
            _ => "",
        };
        self.c.text(x + fs * 1.4, y, &format!("{label}{suffix}"), fs, Anchor::Start, INK, "");
    }

    /// Packs the legend into centred rows above `bottom`; returns the new bottom of the plot.
    fn legend_bottom(&mut self, names: &[String], left: f32, right: f32, bottom: f32) -> f32 {
        let avail = right - left;
        let items = self.legend_items(names, avail * 0.45);
        let gap = self.fs * 1.2;
        let mut rows: Vec<Vec<usize>> = vec![Vec::new()];
        let mut row_w = 0.0;
        for (i, (_, w)) in items.iter().enumerate() {
            let extra = if self.spec.series.get(i).is_some_and(|s| s.secondary) { self.fs * 6.0 } else { 0.0 };
            if row_w + w + extra > avail && !rows.last().is_some_and(Vec::is_empty) {
                rows.push(Vec::new());
                row_w = 0.0;
            }
            row_w += w + extra + gap;
            if let Some(r) = rows.last_mut() {
                r.push(i);
            }
        }
        let max_rows = 3;
        if rows.len() > max_rows {
            let hidden: usize = rows[max_rows..].iter().map(Vec::len).sum();
            self.warnings.push(format!(
                "the legend shows {} of {} entries (no room for {hidden} more)",
                items.len() - hidden,
                items.len()
            ));
            rows.truncate(max_rows);
        }
        let lh = self.fs * 1.5;
        let mut y = bottom - lh * (rows.len() as f32 - 1.0);
        for row in &rows {
            let total: f32 = row.iter().map(|i| items[*i].1 + gap).sum::<f32>() - gap;
            let mut x = left + (avail - total) / 2.0;
            for &i in row {
                let label = items[i].0.clone();
                self.swatch(i, x, y, &label);
                x += items[i].1
                    + gap
                    + if self.spec.series.get(i).is_some_and(|s| s.secondary) { self.fs * 6.0 } else { 0.0 };
            }
            y += lh;
        }
        bottom - lh * rows.len() as f32 - self.fs * 0.6
    }

    /// A column of entries at the right; returns the new right edge of the plot.
    fn legend_right(&mut self, names: &[String], top: f32, bottom: f32) -> f32 {
        let items = self.legend_items(names, self.w * 0.22);
        let lh = self.fs * 1.5;
        let fit = (((bottom - top) / lh).floor() as usize).max(1);
        if items.len() > fit {
            self.warnings
                .push(format!("the legend shows {fit} of {} entries (no room for more at this height)", items.len()));
        }
        let width = items.iter().map(|i| i.1).fold(0.0, f32::max);
        let x = self.w - self.fs - width;
        let shown = items.len().min(fit);
        let mut y = top + ((bottom - top) - lh * shown as f32) / 2.0 + lh * 0.8;
        for (i, (label, _)) in items.iter().take(shown).enumerate() {
            self.swatch(i, x, y, label);
            y += lh;
        }
        x - self.fs
    }

    fn pie(&mut self, left: f32, top: f32, right: f32, bottom: f32) {
        let s = &self.spec.series[0];
        let total: f64 = s.values.iter().flatten().filter(|v| **v > 0.0).sum();
        let (cx, cy) = ((left + right) / 2.0, (top + bottom) / 2.0);
        let r = ((right - left).min(bottom - top) / 2.0 * 0.92).max(4.0);
        let mut angle = -std::f64::consts::FRAC_PI_2;
        let mut labels = Vec::new();
        for (i, v) in s.values.iter().enumerate() {
            let Some(v) = v.filter(|v| *v > 0.0) else { continue };
            let sweep = v / total * std::f64::consts::TAU;
            let (a0, a1) = (angle, angle + sweep);
            let p = |a: f64, rr: f32| (cx + rr * a.cos() as f32, cy + rr * a.sin() as f32);
            let color = self.color(i);
            if sweep >= std::f64::consts::TAU - 1e-9 {
                self.c.circle(cx, cy, r, color);
            } else {
                let (x0, y0) = p(a0, r);
                let (x1, y1) = p(a1, r);
                let large = if sweep > std::f64::consts::PI { 1 } else { 0 };
                let d = format!(
                    "M{} {}L{} {}A{} {} 0 {large} 1 {} {}Z",
                    f(cx),
                    f(cy),
                    f(x0),
                    f(y0),
                    f(r),
                    f(r),
                    f(x1),
                    f(y1)
                );
                self.c.path(&d, color, "#FFFFFF", 1.5, "");
            }
            if sweep > 0.3 {
                let label = if self.spec.number_format.is_some() {
                    self.fmt.format(v, None)
                } else {
                    format!("{:.0}%", v / total * 100.0)
                };
                labels.push((p((a0 + a1) / 2.0, r * 0.66), label, i));
            }
            angle = a1;
        }
        for ((x, y), label, i) in labels {
            let fill = if matches!(i % PALETTE.len(), 1 | 5 | 7) { INK } else { "#FFFFFF" };
            self.c.text(x, y + self.fs * 0.35, &label, self.fs, Anchor::Middle, fill, r#" font-weight="bold""#);
        }
    }

    fn value_span(&self, secondary: bool) -> (f64, f64) {
        let (lo, hi) = self.data_span(secondary);
        match self.spec.y_min {
            // The spec says where the axis starts (primary axis only).
            Some(m) if !secondary => (m.min(hi), hi.max(m)),
            _ => (lo, hi),
        }
    }

    fn data_span(&self, secondary: bool) -> (f64, f64) {
        let spec = self.spec;
        let series = || spec.series.iter().filter(move |s| s.secondary == secondary);
        let bars = matches!(spec.kind, ChartType::Bar | ChartType::Area)
            || (spec.kind == ChartType::Combo && series().any(|s| s.kind == SeriesKind::Bar));
        if spec.stacked && matches!(spec.kind, ChartType::Bar | ChartType::Area) {
            let n = spec.categories.len();
            let mut vals = Vec::new();
            for i in 0..n {
                let (mut pos, mut neg) = (0.0, 0.0);
                for s in series() {
                    match s.values.get(i).copied().flatten() {
                        Some(v) if v >= 0.0 => pos += v,
                        Some(v) => neg += v,
                        None => {}
                    }
                }
                vals.push(pos);
                vals.push(neg);
            }
            return span(vals.into_iter(), true);
        }
        span(series().flat_map(|s| s.values.iter().flatten().copied()), bars)
    }

    fn scale(&self, lo: f64, hi: f64, p0: f32, p1: f32) -> Scale {
        let target = (((p1 - p0).abs() / (self.fs * 3.5)) as usize).clamp(2, 8);
        let (min, max, step) = nice_ticks(lo, hi, target);
        Scale { min, max, step, p0, p1 }
    }

    fn tick_labels(&self, s: &Scale) -> Vec<(f64, String)> {
        s.ticks().into_iter().map(|t| (t, self.fmt.format(t, Some(s.step)))).collect()
    }

    /// The secondary axis' labels: its own scale, decimals from its step (the spec's
    /// numberFormat is the primary axis').
    fn tick_labels_auto(&self, s: &Scale) -> Vec<(f64, String)> {
        let fmt = NumFmt::auto();
        s.ticks().into_iter().map(|t| (t, fmt.format(t, Some(s.step)))).collect()
    }

    fn cat_labels(&mut self, slot: f32, max_h: f32) -> (CatLabels, usize, f32) {
        let fs = self.fs * 0.9;
        let n = self.spec.categories.len();
        let every = ((fs * MIN_SLOT / slot).ceil() as usize).max(1);
        let cats = &self.spec.categories;
        let room = slot * every as f32 * 0.95;
        if cats.iter().all(|c| text_width(c, fs, false) <= room) {
            return (CatLabels::Lines(cats.iter().map(|c| vec![c.clone()]).collect()), every, fs * 1.3);
        }
        let wrapped: Vec<Vec<String>> = cats.iter().map(|c| wrap(c, fs, room, 2)).collect();
        let clean = wrapped.iter().flatten().filter(|l| l.ends_with('…')).count() == 0;
        if clean || room >= fs * 6.0 {
            if !clean {
                self.warnings.push("some category labels were shortened with … to fit".into());
            }
            return (CatLabels::Lines(wrapped), every, fs * 2.5);
        }
        let max_len = (max_h / std::f32::consts::FRAC_1_SQRT_2).min(self.w * 0.3);
        let mut cut = false;
        let rotated: Vec<String> = cats
            .iter()
            .map(|c| {
                let t = truncate(c, fs, max_len);
                cut |= t != *c;
                t
            })
            .collect();
        if cut {
            self.warnings.push("some category labels were shortened with … to fit".into());
        }
        let longest = rotated.iter().map(|t| text_width(t, fs, false)).fold(0.0, f32::max);
        let _ = n;
        (CatLabels::Rotated(rotated), every, longest * std::f32::consts::FRAC_1_SQRT_2 + fs * 1.2)
    }

    fn axes(&mut self, mut left: f32, top: f32, mut right: f32, mut bottom: f32) {
        let spec = self.spec;
        let fs = self.fs * 0.9;
        let horizontal = spec.horizontal && spec.kind == ChartType::Bar;
        let scatter = spec.kind == ChartType::Scatter;
        let (lo, hi) = self.value_span(false);
        let secondary = spec.kind == ChartType::Combo && spec.series.iter().any(|s| s.secondary);
        if let Some(t) = &spec.y_title {
            let x = left + fs * 0.9;
            let y = (top + bottom) / 2.0;
            let t = truncate(t, fs, bottom - top);
            self.c.text(x, y, &t, fs, Anchor::Middle, MUTED, &format!(r#" transform="rotate(-90 {} {})""#, f(x), f(y)));
            left += fs * 1.6;
        }
        if let Some(t) = &spec.x_title {
            let t = truncate(t, fs, right - left);
            self.c.text((left + right) / 2.0, bottom, &t, fs, Anchor::Middle, MUTED, "");
            bottom -= fs * 1.6;
        }
        if horizontal {
            // Categories down the left, values along the bottom.
            let label_w =
                spec.categories.iter().map(|c| text_width(c, fs, false)).fold(0.0, f32::max).min(self.w * 0.3);
            let plot_left = left + label_w + fs * 0.6;
            let vs = self.scale(lo, hi, plot_left, right - fs);
            let tick_y = bottom;
            bottom -= fs * 1.5;
            for (t, label) in self.tick_labels(&vs) {
                let x = vs.at(t);
                self.c.line(x, top, x, bottom, if t == 0.0 { MUTED } else { GRID }, 1.0);
                self.c.text(x, tick_y, &label, fs, Anchor::Middle, MUTED, "");
            }
            let n = spec.categories.len().max(1);
            let slot = (bottom - top) / n as f32;
            for (i, c) in spec.categories.iter().enumerate() {
                let lines = wrap(c, fs, label_w, if slot > fs * 2.6 { 2 } else { 1 });
                let y0 = top + slot * (i as f32 + 0.5) - (lines.len() as f32 - 1.0) * fs * 0.6 + fs * 0.35;
                for (k, l) in lines.iter().enumerate() {
                    self.c.text(plot_left - fs * 0.5, y0 + k as f32 * fs * 1.2, l, fs, Anchor::End, INK, "");
                }
            }
            self.bars(&vs, top, slot, true, false);
            return;
        }
        // Value axis on the left (and a secondary one on the right for combo).
        let vs_probe = self.scale(lo, hi, bottom, top);
        let lw = self.tick_labels(&vs_probe).iter().map(|(_, l)| text_width(l, fs, false)).fold(0.0, f32::max);
        left += lw + fs * 0.6;
        let sec = if secondary {
            let (slo, shi) = self.value_span(true);
            let probe = self.scale(slo, shi, bottom, top);
            let rw = self.tick_labels_auto(&probe).iter().map(|(_, l)| text_width(l, fs, false)).fold(0.0, f32::max);
            right -= rw + fs * 0.6;
            Some((slo, shi))
        } else {
            right -= fs * 0.5;
            None
        };
        let (xs, cat) = if scatter {
            let xs_all = spec.series.iter().flat_map(|s| match &s.x {
                Some(x) => x.iter().flatten().copied().collect::<Vec<_>>(),
                None => (1..=s.values.len()).map(|i| i as f64).collect(),
            });
            let (xlo, xhi) = span(xs_all, false);
            bottom -= fs * 1.5;
            (Some(self.scale(xlo, xhi, left, right)), None)
        } else {
            let n = spec.categories.len().max(1);
            let slot = (right - left) / n as f32;
            let (labels, every, height) = self.cat_labels(slot, (bottom - top) * 0.35);
            bottom -= height;
            (None, Some((labels, every, slot)))
        };
        let vs = self.scale(lo, hi, bottom, top);
        for (t, label) in self.tick_labels(&vs) {
            let y = vs.at(t);
            self.c.line(left, y, right, y, if t == 0.0 && vs.min < 0.0 { MUTED } else { GRID }, 1.0);
            self.c.text(left - fs * 0.5, y + fs * 0.35, &label, fs, Anchor::End, MUTED, "");
        }
        let ss = sec.map(|(slo, shi)| {
            let s = self.scale(slo, shi, bottom, top);
            for (t, label) in self.tick_labels_auto(&s) {
                self.c.text(right + fs * 0.5, s.at(t) + fs * 0.35, &label, fs, Anchor::Start, MUTED, "");
            }
            s
        });
        self.c.line(left, bottom, right, bottom, MUTED, 1.0);
        if let Some(xs) = xs {
            for (t, label) in self.tick_labels(&xs) {
                let x = xs.at(t);
                self.c.line(x, bottom, x, bottom + fs * 0.3, MUTED, 1.0);
                self.c.text(x, bottom + fs * 1.3, &label, fs, Anchor::Middle, MUTED, "");
            }
            self.scatter(&xs, &vs);
            return;
        }
        let Some((labels, every, slot)) = cat else { return };
        match &labels {
            CatLabels::Lines(lines) => {
                for (i, ls) in lines.iter().enumerate().filter(|(i, _)| i % every == 0) {
                    let x = left + slot * (i as f32 + 0.5);
                    for (k, l) in ls.iter().enumerate() {
                        self.c.text(x, bottom + fs * (1.3 + 1.2 * k as f32), l, fs, Anchor::Middle, INK, "");
                    }
                }
            }
            CatLabels::Rotated(ts) => {
                for (i, t) in ts.iter().enumerate().filter(|(i, _)| i % every == 0) {
                    let (x, y) = (left + slot * (i as f32 + 0.5), bottom + fs * 0.9);
                    // A label turned 45° runs left of its slot: it may not leave the canvas.
                    let room = (x - fs * 0.5) / std::f32::consts::FRAC_1_SQRT_2;
                    let cut = truncate(t, fs, room);
                    if cut != *t && !self.warnings.iter().any(|w| w.contains("shortened")) {
                        self.warnings.push("some category labels were shortened with … to fit".into());
                    }
                    let t = &cut;
                    self.c.text(
                        x,
                        y,
                        t,
                        fs,
                        Anchor::End,
                        INK,
                        &format!(r#" transform="rotate(-45 {} {})""#, f(x), f(y)),
                    );
                }
            }
        }
        match spec.kind {
            ChartType::Bar => self.bars(&vs, left, slot, false, false),
            ChartType::Line => self.lines(&vs, None, left, slot, false),
            ChartType::Area => self.lines(&vs, None, left, slot, true),
            ChartType::Combo => {
                self.bars(&vs, left, slot, false, true);
                if let Some(ss) = ss {
                    self.bars_secondary(&ss, left, slot);
                }
                self.lines(&vs, ss.as_ref(), left, slot, false);
            }
            ChartType::Pie | ChartType::Scatter => {}
        }
    }

    fn bar_series(&self, combo: bool, secondary: Option<bool>) -> Vec<usize> {
        self.spec
            .series
            .iter()
            .enumerate()
            .filter(|(_, s)| !combo || s.kind == SeriesKind::Bar)
            .filter(|(_, s)| secondary.is_none_or(|sec| s.secondary == sec))
            .map(|(i, _)| i)
            .collect()
    }

    fn bars_secondary(&mut self, ss: &Scale, start: f32, slot: f32) {
        let all = self.bar_series(true, None);
        let idx = self.bar_series(true, Some(true));
        self.draw_bars(ss, start, slot, false, &idx, &all);
    }

    /// Bars of every bar series (combo: the primary ones; their secondary ones in
    /// [`Self::bars_secondary`]); `start`/`slot` run along the category axis.
    fn bars(&mut self, vs: &Scale, start: f32, slot: f32, horizontal: bool, combo: bool) {
        let all = self.bar_series(combo, None);
        let idx = if combo { self.bar_series(true, Some(false)) } else { all.clone() };
        self.draw_bars(vs, start, slot, horizontal, &idx, &all);
    }

    fn draw_bars(&mut self, vs: &Scale, start: f32, slot: f32, horizontal: bool, idx: &[usize], all: &[usize]) {
        let spec = self.spec;
        let stacked = spec.stacked && spec.kind == ChartType::Bar;
        let group = slot * 0.72;
        let per = if stacked { group } else { group / all.len().max(1) as f32 };
        let n = spec.categories.len();
        let label_bars = !stacked && n * all.len() <= 12 && per > self.fs * 2.2;
        let zero = vs.at(0.0f64.clamp(vs.min, vs.max));
        for c in 0..n {
            let (mut pos, mut neg) = (0.0f64, 0.0f64);
            for &si in idx {
                let Some(v) = spec.series[si].values.get(c).copied().flatten() else { continue };
                let k = all.iter().position(|a| *a == si).unwrap_or(0);
                let off = start + slot * c as f32 + (slot - group) / 2.0 + if stacked { 0.0 } else { per * k as f32 };
                let (a, b) = if stacked {
                    let base = if v >= 0.0 { pos } else { neg };
                    if v >= 0.0 {
                        pos += v
                    } else {
                        neg += v
                    }
                    (vs.at(base), vs.at(base + v))
                } else {
                    (zero, vs.at(v))
                };
                let color = self.color(si);
                let inset = if stacked { 0.0 } else { per * 0.06 };
                if horizontal {
                    self.c.rect(a.min(b), off + inset, (b - a).abs(), per - 2.0 * inset, color);
                } else {
                    self.c.rect(off + inset, a.min(b), per - 2.0 * inset, (b - a).abs(), color);
                }
                if label_bars {
                    let label = self.fmt.format(v, Some(vs.step / 10.0).filter(|_| v != v.trunc()));
                    let fs = self.fs * 0.8;
                    if horizontal {
                        let (x, anchor) =
                            if v >= 0.0 { (b + fs * 0.3, Anchor::Start) } else { (b - fs * 0.3, Anchor::End) };
                        self.c.text(x, off + per / 2.0 + fs * 0.35, &label, fs, anchor, INK, "");
                    } else {
                        let y = if v >= 0.0 { b - fs * 0.4 } else { b + fs * 1.1 };
                        self.c.text(off + per / 2.0, y, &label, fs, Anchor::Middle, INK, "");
                    }
                }
            }
        }
    }

    fn lines(&mut self, vs: &Scale, ss: Option<&Scale>, start: f32, slot: f32, area: bool) {
        let spec = self.spec;
        let n = spec.categories.len();
        let stacked = area && spec.stacked;
        let mut base = vec![0.0f64; n];
        let markers = n <= 24;
        for (si, s) in spec.series.iter().enumerate() {
            if spec.kind == ChartType::Combo && s.kind != SeriesKind::Line {
                continue;
            }
            let scale = if s.secondary { ss.unwrap_or(vs) } else { vs };
            let color = self.color(si);
            let x = |i: usize| start + slot * (i as f32 + 0.5);
            let mut runs: Vec<Vec<(usize, f64, f64)>> = vec![Vec::new()];
            for (i, acc) in base.iter_mut().enumerate() {
                match s.values.get(i).copied().flatten() {
                    Some(v) => {
                        let b = if stacked { *acc } else { 0.0 };
                        if stacked {
                            *acc += v;
                        }
                        if let Some(r) = runs.last_mut() {
                            r.push((i, b, b + v));
                        }
                    }
                    None if !runs.last().is_some_and(Vec::is_empty) => runs.push(Vec::new()),
                    None => {}
                }
            }
            for run in runs.iter().filter(|r| !r.is_empty()) {
                let top: Vec<String> =
                    run.iter().map(|(i, _, v)| format!("{} {}", f(x(*i)), f(scale.at(*v)))).collect();
                if area {
                    let floor = scale.at(0.0f64.clamp(scale.min, scale.max));
                    let bottom: Vec<String> = run
                        .iter()
                        .rev()
                        .map(|(i, b, _)| format!("{} {}", f(x(*i)), f(if stacked { scale.at(*b) } else { floor })))
                        .collect();
                    let d = format!("M{}L{}Z", top.join("L"), bottom.join("L"));
                    self.c.path(&d, color, "none", 0.0, r#" fill-opacity="0.45""#);
                }
                self.c.path(&format!("M{}", top.join("L")), "none", color, 2.5, r#" stroke-linejoin="round""#);
                if markers && !area {
                    for (i, _, v) in run {
                        self.c.circle(x(*i), scale.at(*v), 3.5, color);
                    }
                }
            }
        }
    }

    fn scatter(&mut self, xs: &Scale, vs: &Scale) {
        for (si, s) in self.spec.series.iter().enumerate() {
            let color = self.color(si);
            for (i, v) in s.values.iter().enumerate() {
                let xv = match &s.x {
                    Some(x) => x.get(i).copied().flatten(),
                    None => Some((i + 1) as f64),
                };
                if let (Some(xv), Some(v)) = (xv, v) {
                    self.c.circle(xs.at(xv), vs.at(*v), 5.0, color);
                }
            }
        }
    }
}
