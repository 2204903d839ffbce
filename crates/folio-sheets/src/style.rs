//! Cell styles as a spec gives them (`{bold, fill: '#DDEBF7', numFmt: '#,##0', border: 'thin',
//! align: 'center'}`), merged in layers (column, range styles in order, the cell's own), and
//! turned into rust_xlsxwriter formats. An unknown key or value is refused by name, so a typo
//! never silently drops a style.

use rust_xlsxwriter::{Color, Format, FormatAlign, FormatBorder, FormatUnderline};
use serde_json::Value;

use crate::error::{Result, SheetError};

/// One layer of style; `None` leaves the layer below.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Style {
    bold: Option<bool>,
    italic: Option<bool>,
    underline: Option<bool>,
    strike: Option<bool>,
    font: Option<String>,
    size: Option<f64>,
    color: Option<u32>,
    fill: Option<u32>,
    border: Option<FormatBorder>,
    border_color: Option<u32>,
    align: Option<FormatAlign>,
    valign: Option<FormatAlign>,
    wrap: Option<bool>,
    num_fmt: Option<String>,
}

/// The style keys a spec may use.
pub const KEYS: &[&str] = &[
    "bold",
    "italic",
    "underline",
    "strike",
    "font",
    "fontSize",
    "size",
    "color",
    "fontColor",
    "fill",
    "background",
    "border",
    "borderColor",
    "align",
    "valign",
    "wrap",
    "numFmt",
];

fn color(key: &str, v: &Value) -> Result<u32> {
    let s = v.as_str().unwrap_or_default().trim_start_matches('#');
    let named = match s.to_ascii_lowercase().as_str() {
        "black" => Some(0x000000),
        "white" => Some(0xFFFFFF),
        "red" => Some(0xFF0000),
        "green" => Some(0x008000),
        "blue" => Some(0x0000FF),
        "yellow" => Some(0xFFFF00),
        "gray" | "grey" => Some(0x808080),
        "orange" => Some(0xFFA500),
        _ => None,
    };
    if let Some(c) = named {
        return Ok(c);
    }
    let hex = if s.len() == 8 { &s[2..] } else { s };
    if hex.len() == 6
        && let Ok(c) = u32::from_str_radix(hex, 16)
    {
        return Ok(c);
    }
    Err(SheetError::invalid(format!(
        "style {key}: {v} is not a colour — hint: use \"#RRGGBB\" such as \"#DDEBF7\", or black, white, red, green, blue, yellow, gray, orange"
    )))
}

fn flag(key: &str, v: &Value) -> Result<bool> {
    v.as_bool().ok_or_else(|| SheetError::invalid(format!("style {key} must be true or false, not {v}")))
}

impl Style {
    /// Parses a style object.
    pub fn parse(v: &Value) -> Result<Style> {
        let Some(obj) = v.as_object() else {
            return Err(SheetError::invalid(format!(
                "a style must be an object such as {{bold: true, fill: '#DDEBF7'}}, not {v}"
            )));
        };
        let mut s = Style::default();
        for (k, v) in obj {
            match k.as_str() {
                "bold" => s.bold = Some(flag(k, v)?),
                "italic" => s.italic = Some(flag(k, v)?),
                "underline" => s.underline = Some(flag(k, v)?),
                "strike" => s.strike = Some(flag(k, v)?),
                "wrap" => s.wrap = Some(flag(k, v)?),
                "font" => s.font = v.as_str().map(str::to_string),
                "fontSize" | "size" => {
                    s.size = Some(v.as_f64().filter(|x| *x > 0.0 && *x < 410.0).ok_or_else(|| {
                        SheetError::invalid(format!("style {k} must be a point size between 1 and 409, not {v}"))
                    })?)
                }
                "color" | "fontColor" => s.color = Some(color(k, v)?),
                "fill" | "background" => s.fill = Some(color(k, v)?),
                "borderColor" => s.border_color = Some(color(k, v)?),
                "border" => {
                    s.border = Some(match v.as_str().unwrap_or_default() {
                        "thin" => FormatBorder::Thin,
                        "medium" => FormatBorder::Medium,
                        "thick" => FormatBorder::Thick,
                        "dashed" => FormatBorder::Dashed,
                        "dotted" => FormatBorder::Dotted,
                        "double" => FormatBorder::Double,
                        "hair" => FormatBorder::Hair,
                        "none" => FormatBorder::None,
                        _ if v.as_bool() == Some(true) => FormatBorder::Thin,
                        _ => {
                            return Err(SheetError::invalid(format!(
                                "style border: {v} — hint: one of thin, medium, thick, dashed, dotted, double, hair, none"
                            )));
                        }
                    })
                }
                "align" => {
                    s.align = Some(match v.as_str().unwrap_or_default() {
                        "left" => FormatAlign::Left,
                        "center" => FormatAlign::Center,
                        "right" => FormatAlign::Right,
                        "justify" => FormatAlign::Justify,
                        "fill" => FormatAlign::Fill,
                        _ => {
                            return Err(SheetError::invalid(format!(
                                "style align: {v} — hint: left, center, right, justify or fill"
                            )));
                        }
                    })
                }
                "valign" => {
                    s.valign = Some(match v.as_str().unwrap_or_default() {
                        "top" => FormatAlign::Top,
                        "middle" | "center" => FormatAlign::VerticalCenter,
                        "bottom" => FormatAlign::Bottom,
                        _ => {
                            return Err(SheetError::invalid(format!(
                                "style valign: {v} — hint: top, middle or bottom"
                            )));
                        }
                    })
                }
                "numFmt" => {
                    s.num_fmt = Some(
                        v.as_str()
                            .ok_or_else(|| {
                                SheetError::invalid(format!("style numFmt must be text such as \"#,##0.00\", not {v}"))
                            })?
                            .to_string(),
                    )
                }
                other => {
                    return Err(SheetError::invalid(format!(
                        "unknown style key {other:?} — hint: the keys are {}",
                        KEYS.join(", ")
                    )));
                }
            }
        }
        Ok(s)
    }

    /// A style with only a number format.
    pub fn num_fmt(fmt: &str) -> Style {
        Style { num_fmt: Some(fmt.to_string()), ..Style::default() }
    }

    /// A bold style.
    pub fn bold() -> Style {
        Style { bold: Some(true), ..Style::default() }
    }

    /// `over` laid on top of this style.
    pub fn merge(&mut self, over: &Style) {
        macro_rules! take {
            ($($f:ident),*) => { $( if over.$f.is_some() { self.$f = over.$f.clone(); } )* };
        }
        take!(
            bold,
            italic,
            underline,
            strike,
            font,
            size,
            color,
            fill,
            border,
            border_color,
            align,
            valign,
            wrap,
            num_fmt
        );
    }

    /// True when nothing is set.
    pub fn is_plain(&self) -> bool {
        *self == Style::default()
    }

    /// The rust_xlsxwriter format.
    pub fn format(&self) -> Format {
        let mut f = Format::new();
        if self.bold == Some(true) {
            f = f.set_bold();
        }
        if self.italic == Some(true) {
            f = f.set_italic();
        }
        if self.underline == Some(true) {
            f = f.set_underline(FormatUnderline::Single);
        }
        if self.strike == Some(true) {
            f = f.set_font_strikethrough();
        }
        if let Some(name) = &self.font {
            f = f.set_font_name(name.as_str());
        }
        if let Some(size) = self.size {
            f = f.set_font_size(size);
        }
        if let Some(c) = self.color {
            f = f.set_font_color(Color::RGB(c));
        }
        if let Some(c) = self.fill {
            f = f.set_background_color(Color::RGB(c));
        }
        if let Some(b) = self.border {
            f = f.set_border(b);
        }
        if let Some(c) = self.border_color {
            f = f.set_border_color(Color::RGB(c));
        }
        if let Some(a) = self.align {
            f = f.set_align(a);
        }
        if let Some(a) = self.valign {
            f = f.set_align(a);
        }
        if self.wrap == Some(true) {
            f = f.set_text_wrap();
        }
        if let Some(n) = &self.num_fmt {
            f = f.set_num_format(n.as_str());
        }
        f
    }
}
