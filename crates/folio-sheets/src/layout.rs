//! What a workbook shows beyond its cells, read from the xlsx parts for `describe`: each sheet's
//! frozen panes and its charts (kind, title, and each series' name and ranges), so a model that
//! cannot look at the file can still check the chart it made.
//!
//! The path from a sheet to its charts is the package's relationships: `xl/workbook.xml` names
//! the sheet and its `r:id`, the workbook's rels give the sheet part, the sheet's `<drawing>`
//! and its rels give the drawing part, and the drawing's rels give each chart part. A part that
//! is missing or unreadable leaves that sheet without charts — `describe` is a summary, and the
//! cells were already read by calamine.

use std::collections::BTreeMap;
use std::io::{Cursor, Read};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use serde_json::{Value, json};

/// Per sheet name: `{"freeze": "A2"}` and `{"charts": [...]}` when it has them.
pub fn sheet_layout(bytes: &[u8]) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let Ok(mut zip) = zip::ZipArchive::new(Cursor::new(bytes)) else { return out };
    let Some(wb) = part(&mut zip, "xl/workbook.xml") else { return out };
    let rels = relations(&mut zip, "xl/workbook.xml");
    for (name, rid) in
        elements(&wb, b"sheet").iter().filter_map(|e| Some((e.get("name")?.clone(), e.get("id")?.clone())))
    {
        let Some(sheet_part) = rels.get(&rid).map(|t| resolve("xl/workbook.xml", t)) else { continue };
        let Some(xml) = part(&mut zip, &sheet_part) else { continue };
        let mut layout = serde_json::Map::new();
        if let Some(pane) =
            elements(&xml, b"pane").into_iter().find(|p| p.get("state").is_some_and(|s| s.starts_with("frozen")))
            && let Some(cell) = pane.get("topLeftCell")
        {
            layout.insert("freeze".into(), json!(cell));
        }
        let sheet_rels = relations(&mut zip, &sheet_part);
        let mut charts = Vec::new();
        for drawing in elements(&xml, b"drawing").iter().filter_map(|d| d.get("id")) {
            let Some(drawing_part) = sheet_rels.get(drawing).map(|t| resolve(&sheet_part, t)) else { continue };
            let drawing_rels = relations(&mut zip, &drawing_part);
            let Some(dxml) = part(&mut zip, &drawing_part) else { continue };
            for chart_rid in elements(&dxml, b"chart").iter().filter_map(|c| c.get("id")) {
                let Some(chart_part) = drawing_rels.get(chart_rid).map(|t| resolve(&drawing_part, t)) else { continue };
                if let Some(cxml) = part(&mut zip, &chart_part) {
                    charts.push(chart(&cxml));
                }
            }
        }
        if !charts.is_empty() {
            layout.insert("charts".into(), Value::Array(charts));
        }
        if !layout.is_empty() {
            out.insert(name, Value::Object(layout));
        }
    }
    out
}

/// The kinds a plot area can hold (`c:barChart` → "bar", with `c:barDir` telling column from bar).
const PLOTS: &[&[u8]] = &[
    b"barChart",
    b"bar3DChart",
    b"lineChart",
    b"line3DChart",
    b"pieChart",
    b"pie3DChart",
    b"doughnutChart",
    b"areaChart",
    b"area3DChart",
    b"scatterChart",
    b"radarChart",
    b"bubbleChart",
    b"stockChart",
    b"surfaceChart",
];

/// One chart part as `{type, title, series: [{name, categories, values}]}`.
fn chart(xml: &str) -> Value {
    let mut reader = Reader::from_str(xml);
    let mut types: Vec<String> = Vec::new();
    let mut title = String::new();
    let mut series: Vec<Value> = Vec::new();
    // Where we are: inside <c:title> (outside a series), inside <c:ser>, and which ref holder.
    // Axis titles come after `<c:plotArea>` opens; only the chart's own title is taken.
    let (mut in_title, mut in_ser, mut holder, mut in_f, mut in_t) = (0u32, false, String::new(), false, false);
    let mut in_plot = false;
    let mut current = serde_json::Map::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let local = e.local_name();
                let n = local.as_ref();
                if let Some(kind) = PLOTS.iter().find(|k| **k == n) {
                    let k = String::from_utf8_lossy(kind).trim_end_matches("Chart").to_owned();
                    types.push(k);
                }
                match n {
                    b"title" if !in_ser && !in_plot => in_title += 1,
                    b"plotArea" => in_plot = true,
                    b"ser" => {
                        in_ser = true;
                        current = serde_json::Map::new();
                    }
                    b"tx" | b"cat" | b"val" | b"xVal" | b"yVal" if in_ser && holder.is_empty() => {
                        holder = String::from_utf8_lossy(n).into_owned();
                    }
                    b"f" => in_f = true,
                    b"t" => in_t = true,
                    _ => {}
                }
            }
            Ok(Event::Empty(e)) if e.local_name().as_ref() == b"barDir" => {
                // c:barDir says whether a bar chart is horizontal ("bar") or a column chart.
                let horizontal = attr(&e, b"val").as_deref() == Some("bar");
                if let Some(last) = types.last_mut().filter(|t| *t == "bar") {
                    *last = if horizontal { "bar (horizontal)" } else { "column" }.into();
                }
            }
            Ok(Event::Text(t)) => {
                let raw = String::from_utf8_lossy(&t).into_owned();
                let s = quick_xml::escape::unescape(&raw).map(|v| v.into_owned()).unwrap_or(raw);
                if in_f && in_ser && !holder.is_empty() {
                    let key = match holder.as_str() {
                        "tx" => "name",
                        "cat" | "xVal" => "categories",
                        _ => "values",
                    };
                    current.insert(key.into(), json!(s));
                } else if in_t && in_title > 0 {
                    title.push_str(&s);
                } else if in_t && in_ser && holder == "tx" && !current.contains_key("name") {
                    current.insert("name".into(), json!(s));
                }
            }
            Ok(Event::End(e)) => match e.local_name().as_ref() {
                b"title" if !in_ser && !in_plot && in_title > 0 => in_title -= 1,
                b"ser" => {
                    in_ser = false;
                    series.push(Value::Object(std::mem::take(&mut current)));
                }
                n if n == holder.as_bytes() => holder.clear(),
                b"f" => in_f = false,
                b"t" => in_t = false,
                _ => {}
            },
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    let mut out = json!({"type": types.join(" + "), "series": series});
    if !title.is_empty() {
        out["title"] = json!(title);
    }
    out
}

/// Every `<name …>` element's attributes (by local name), in document order.
fn elements(xml: &str, name: &[u8]) -> Vec<BTreeMap<String, String>> {
    let mut reader = Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) if e.local_name().as_ref() == name => {
                out.push(
                    e.attributes()
                        .flatten()
                        .map(|a| {
                            let v = String::from_utf8_lossy(&a.value).into_owned();
                            (String::from_utf8_lossy(a.key.local_name().as_ref()).into_owned(), v)
                        })
                        .collect(),
                );
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    out
}

fn attr(e: &BytesStart<'_>, key: &[u8]) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == key)
        .map(|a| String::from_utf8_lossy(&a.value).into_owned())
}

fn part(zip: &mut zip::ZipArchive<Cursor<&[u8]>>, name: &str) -> Option<String> {
    let mut f = zip.by_name(name).ok()?;
    let mut s = String::new();
    f.read_to_string(&mut s).ok()?;
    Some(s)
}

/// The relationships of part `of` (`xl/worksheets/sheet1.xml` → `xl/worksheets/_rels/sheet1.xml.rels`): Id → Target.
fn relations(zip: &mut zip::ZipArchive<Cursor<&[u8]>>, of: &str) -> BTreeMap<String, String> {
    let (dir, file) = of.rsplit_once('/').unwrap_or(("", of));
    let Some(xml) = part(zip, &format!("{dir}/_rels/{file}.rels")) else { return BTreeMap::new() };
    elements(&xml, b"Relationship")
        .into_iter()
        .filter_map(|r| Some((r.get("Id")?.clone(), r.get("Target")?.clone())))
        .collect()
}

/// `target` relative to the directory of part `from` (`../charts/chart1.xml` from
/// `xl/drawings/drawing1.xml` is `xl/charts/chart1.xml`; `/xl/…` is absolute).
fn resolve(from: &str, target: &str) -> String {
    if let Some(abs) = target.strip_prefix('/') {
        return abs.to_owned();
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for seg in target.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s),
        }
    }
    parts.join("/")
}
