//! The deck spec of `create(spec, output)` (adapters-spec §7), parsed strictly: an unknown
//! field is refused with the valid ones, a table's rows must match its header, a slide's chart
//! is folio-charts' spec and fails with its message, and every text is checked against the
//! bundled font so no character turns into a box.

use folio_charts::ChartSpec;
use serde_json::{Map, Value};

use crate::error::{DECK_FIELDS, Result, SLIDE_FIELDS, SlidesError};

/// A deck.
#[derive(Debug, Clone)]
pub struct Deck {
    /// The title slide's title (and the file's title).
    pub title: String,
    /// The title slide's subtitle.
    pub subtitle: Option<String>,
    /// The footer on the master, under every slide.
    pub footer: Option<String>,
    /// The content slides.
    pub slides: Vec<SlideSpec>,
}

/// A bullet: its level (0 = top; one per two-space prefix) and text.
#[derive(Debug, Clone, PartialEq)]
pub struct Bullet {
    /// 0-based indent level.
    pub level: u8,
    /// The text without the prefix.
    pub text: String,
}

/// A table: a header row and data rows.
#[derive(Debug, Clone)]
pub struct Table {
    /// The header cells.
    pub header: Vec<String>,
    /// The data rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

/// A big number over a caption.
#[derive(Debug, Clone)]
pub struct Metric {
    /// The value, as shown (60 pt).
    pub value: String,
    /// The caption under it.
    pub caption: Option<String>,
}

/// One slide of the spec.
#[derive(Debug, Clone, Default)]
pub struct SlideSpec {
    /// The title.
    pub title: Option<String>,
    /// Bullets.
    pub bullets: Vec<Bullet>,
    /// Body paragraphs.
    pub body: Vec<String>,
    /// A table (continued onto further slides when long).
    pub table: Option<Table>,
    /// A metric.
    pub metric: Option<Metric>,
    /// An image's path in the tree (right half).
    pub image: Option<String>,
    /// A native chart.
    pub chart: Option<ChartSpec>,
    /// Speaker notes.
    pub notes: Option<String>,
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn text(m: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(o) => Err(SlidesError::Spec(format!("{at}{key} must be a string, not {}", kind(o)))),
    }
}

fn strings(v: &Value, at: &str) -> Result<Vec<String>> {
    match v {
        Value::String(s) => Ok(s.lines().map(str::to_string).collect()),
        Value::Array(items) => Ok(items.iter().map(cell).collect()),
        o => Err(SlidesError::Spec(format!("{at} must be an array of strings, not {}", kind(o)))),
    }
}

fn table(v: &Value, at: &str) -> Result<Table> {
    let (header, rows): (Vec<String>, Vec<&Value>) = match v {
        Value::Array(rows) if !rows.is_empty() => (strings(&rows[0], &format!("{at}[0]"))?, rows[1..].iter().collect()),
        Value::Object(m) => {
            let header = m
                .get("header")
                .or_else(|| m.get("columns"))
                .ok_or_else(|| SlidesError::Spec(format!("{at} needs header: [...] and rows: [[...]]")))?;
            let rows = match m.get("rows") {
                Some(Value::Array(r)) => r.iter().collect(),
                _ => return Err(SlidesError::Spec(format!("{at}.rows must be an array of rows"))),
            };
            (strings(header, &format!("{at}.header"))?, rows)
        }
        _ => {
            return Err(SlidesError::Spec(format!(
                "{at} must be rows (the first is the header) like [['Region','Revenue'],['EMEA','1.2M']], or {{header, rows}}"
            )));
        }
    };
    let mut out = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let cells = match r {
            Value::Array(c) => c.iter().map(cell).collect::<Vec<_>>(),
            Value::Object(m) => header.iter().map(|h| m.get(h).map(cell).unwrap_or_default()).collect(),
            o => {
                return Err(SlidesError::Spec(format!(
                    "{at} row {} must be an array of cells, not {}",
                    i + 1,
                    kind(o)
                )));
            }
        };
        if cells.len() != header.len() {
            return Err(SlidesError::Spec(format!(
                "{at} row {} has {} cells but the header has {} — give one cell per column",
                i + 1,
                cells.len(),
                header.len()
            )));
        }
        out.push(cells);
    }
    if header.is_empty() {
        return Err(SlidesError::Spec(format!("{at} has no columns")));
    }
    Ok(Table { header, rows: out })
}

fn check_keys(m: &Map<String, Value>, valid: &str, at: &str) -> Result<()> {
    match m.keys().find(|k| !valid.split(", ").any(|v| v == k.as_str())) {
        Some(k) => Err(SlidesError::Spec(format!("{at}unknown field {k:?} — valid fields are: {valid}"))),
        None => Ok(()),
    }
}

fn slide(i: usize, v: &Value) -> Result<SlideSpec> {
    let at = format!("slides[{i}].");
    let Value::Object(m) = v else {
        return Err(SlidesError::Spec(format!("slides[{i}] must be an object with: {SLIDE_FIELDS}")));
    };
    check_keys(m, SLIDE_FIELDS, &at)?;
    let bullets = match m.get("bullets") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => strings(v, &format!("{at}bullets"))?
            .into_iter()
            .map(|b| {
                let spaces = b.len() - b.trim_start_matches(' ').len();
                Bullet { level: (spaces / 2).min(4) as u8, text: b.trim().to_string() }
            })
            .collect(),
    };
    let body = match m.get("body") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => strings(v, &format!("{at}body"))?,
    };
    let metric = match m.get("metric") {
        None | Some(Value::Null) => None,
        Some(Value::Object(mm)) => Some(Metric {
            value: text(mm, "value", &format!("{at}metric."))?
                .ok_or_else(|| SlidesError::Spec(format!("{at}metric needs value (and optionally caption)")))?,
            caption: text(mm, "caption", &format!("{at}metric."))?.or(text(mm, "label", &format!("{at}metric."))?),
        }),
        Some(v @ (Value::String(_) | Value::Number(_))) => Some(Metric { value: cell(v), caption: None }),
        Some(o) => return Err(SlidesError::Spec(format!("{at}metric must be {{value, caption}}, not {}", kind(o)))),
    };
    let image = match m.get("image") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Object(mm)) => text(mm, "path", &format!("{at}image."))?,
        Some(o) => return Err(SlidesError::Spec(format!("{at}image must be a path in the tree, not {}", kind(o)))),
    };
    let chart = match m.get("chart") {
        None | Some(Value::Null) => None,
        Some(v) => Some(ChartSpec::from_json(v).map_err(|source| SlidesError::Chart { slide: i, source })?),
    };
    let table = match m.get("table") {
        None | Some(Value::Null) => None,
        Some(v) => Some(table(v, &format!("{at}table"))?),
    };
    if image.is_some() && chart.is_some() {
        return Err(SlidesError::Spec(format!(
            "{at}image and chart both want the right half — put them on two slides"
        )));
    }
    Ok(SlideSpec {
        title: text(m, "title", &at)?,
        bullets,
        body,
        table,
        metric,
        image,
        chart,
        notes: text(m, "notes", &at)?,
    })
}

impl Deck {
    /// Parses and checks a deck spec.
    pub fn from_json(v: &Value) -> Result<Deck> {
        let Value::Object(m) = v else {
            return Err(SlidesError::Spec(format!("the spec must be an object with: {DECK_FIELDS}")));
        };
        check_keys(m, DECK_FIELDS, "")?;
        let slides = match m.get("slides") {
            Some(Value::Array(s)) => s.iter().enumerate().map(|(i, v)| slide(i, v)).collect::<Result<Vec<_>>>()?,
            None | Some(Value::Null) => Vec::new(),
            Some(o) => return Err(SlidesError::Spec(format!("slides must be an array, not {}", kind(o)))),
        };
        let deck = Deck {
            title: text(m, "title", "")?
                .ok_or_else(|| SlidesError::Spec(format!("title is missing — a deck has: {DECK_FIELDS}")))?,
            subtitle: text(m, "subtitle", "")?,
            footer: text(m, "footer", "")?,
            slides,
        };
        for t in deck.texts() {
            let missing = folio_fonts::Face::Sans.missing(t);
            if !missing.is_empty() {
                let short: String = t.chars().take(60).collect();
                return Err(SlidesError::Glyphs { text: short, chars: folio_fonts::describe_chars(&missing) });
            }
        }
        Ok(deck)
    }

    fn texts(&self) -> Vec<&str> {
        let mut v: Vec<&str> = vec![self.title.as_str()];
        v.extend(self.subtitle.as_deref());
        v.extend(self.footer.as_deref());
        for s in &self.slides {
            v.extend(s.title.as_deref());
            v.extend(s.bullets.iter().map(|b| b.text.as_str()));
            v.extend(s.body.iter().map(String::as_str));
            v.extend(s.notes.as_deref());
            if let Some(t) = &s.table {
                v.extend(t.header.iter().map(String::as_str));
                v.extend(t.rows.iter().flatten().map(String::as_str));
            }
            if let Some(m) = &s.metric {
                v.push(m.value.as_str());
                v.extend(m.caption.as_deref());
            }
        }
        v
    }
}
