//! A chart spec as a native DrawingML chart part (`ppt/charts/chartN.xml`): every series
//! carries its cached categories and values (`c:strCache` / `c:numCache`, empty points left
//! out), so PowerPoint and LibreOffice draw it without an embedded workbook; the formulas name
//! the sheet a workbook would hold (`Sheet1!$B$2:$B$n`). Colours are folio-charts' palette,
//! text is DejaVu Sans, number formats go on the value axis.

use folio_charts::format::NumFmt;
use folio_charts::{ChartSpec, ChartType, Legend, PALETTE, Series, SeriesKind};

use crate::parts::{DECL, FONT, INK, MUTED, RULE, esc};

const C_NS: &str = r#"xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;

fn col(i: usize) -> String {
    let mut n = i + 1;
    let mut s = String::new();
    while n > 0 {
        s.insert(0, (b'A' + ((n - 1) % 26) as u8) as char);
        n = (n - 1) / 26;
    }
    s
}

fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()].trim_start_matches('#')
}

fn num(v: f64) -> String {
    let s = format!("{v}");
    if s.contains('e') { format!("{v:.15}") } else { s }
}

/// The value axis of bars and areas starts at zero, written into the chart rather than left
/// to the program that draws it (which may start a bar axis at 5,600 m and exaggerate every
/// difference): `Some(0)` when the axis carries bars or areas (`carries` picks its series) and
/// no value is negative; with negatives the drawing program's range already spans zero.
/// The spec's `yMin`, when given, sets the primary axis' start whatever the type.
fn zero_floor(spec: &ChartSpec, carries: impl Fn(&Series) -> bool) -> Option<f64> {
    let mine: Vec<&Series> = spec.series.iter().filter(|s| carries(s)).collect();
    let any = mine.iter().flat_map(|s| s.values.iter().flatten()).next().is_some();
    let negative = mine.iter().flat_map(|s| s.values.iter().flatten()).any(|v| *v < 0.0);
    spec.y_min.or((any && !negative).then_some(0.0))
}

fn str_ref(f: &str, items: &[String]) -> String {
    let pts: String =
        items.iter().enumerate().map(|(i, s)| format!(r#"<c:pt idx="{i}"><c:v>{}</c:v></c:pt>"#, esc(s))).collect();
    format!(r#"<c:strRef><c:f>{f}</c:f><c:strCache><c:ptCount val="{}"/>{pts}</c:strCache></c:strRef>"#, items.len())
}

fn num_ref(f: &str, values: &[Option<f64>], code: &str) -> String {
    let pts: String = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| format!(r#"<c:pt idx="{i}"><c:v>{}</c:v></c:pt>"#, num(v))))
        .collect();
    format!(
        r#"<c:numRef><c:f>{f}</c:f><c:numCache><c:formatCode>{}</c:formatCode><c:ptCount val="{}"/>{pts}</c:numCache></c:numRef>"#,
        esc(code),
        values.len()
    )
}

fn text_props(size: u32, color: &str, bold: bool) -> String {
    format!(
        r#"<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="{size}" b="{}"><a:solidFill><a:srgbClr val="{color}"/></a:solidFill><a:latin typeface="{FONT}"/></a:defRPr></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>"#,
        u8::from(bold)
    )
}

fn title(text: &str, size: u32) -> String {
    format!(
        r#"<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="{size}" b="1"/></a:pPr><a:r><a:rPr lang="en-US" sz="{size}" b="1"><a:solidFill><a:srgbClr val="{INK}"/></a:solidFill><a:latin typeface="{FONT}"/></a:rPr><a:t>{}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>"#,
        esc(text)
    )
}

struct Ctx<'a> {
    spec: &'a ChartSpec,
    code: String,
}

impl Ctx<'_> {
    fn ser(&self, i: usize, s: &Series, line: bool) -> String {
        let n = self.spec.categories.len().max(s.values.len());
        let c = col(i + 1);
        let tx = format!("<c:tx>{}</c:tx>", str_ref(&format!("Sheet1!${c}$1"), std::slice::from_ref(&s.name)));
        let fill = color(i);
        let sp = if line {
            format!(
                r#"<c:spPr><a:ln w="28575" cap="rnd"><a:solidFill><a:srgbClr val="{fill}"/></a:solidFill><a:round/></a:ln></c:spPr>"#
            )
        } else {
            format!(r#"<c:spPr><a:solidFill><a:srgbClr val="{fill}"/></a:solidFill></c:spPr>"#)
        };
        let cat = format!("<c:cat>{}</c:cat>", str_ref(&format!("Sheet1!$A$2:$A${}", n + 1), &self.spec.categories));
        let val =
            format!("<c:val>{}</c:val>", num_ref(&format!("Sheet1!${c}$2:${c}${}", n + 1), &s.values, &self.code));
        let head = format!(r#"<c:idx val="{i}"/><c:order val="{i}"/>{tx}"#);
        match self.spec.kind {
            ChartType::Pie => {
                let pts: String = (0..n)
                    .map(|k| {
                        format!(
                            r#"<c:dPt><c:idx val="{k}"/><c:bubble3D val="0"/><c:spPr><a:solidFill><a:srgbClr val="{}"/></a:solidFill><a:ln w="12700"><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></a:ln></c:spPr></c:dPt>"#,
                            color(k)
                        )
                    })
                    .collect();
                let labels = format!(
                    r#"<c:dLbls>{}<c:showLegendKey val="0"/><c:showVal val="0"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="1"/><c:showBubbleSize val="0"/></c:dLbls>"#,
                    text_props(1200, "FFFFFF", true)
                );
                format!("<c:ser>{head}{pts}{labels}{cat}{val}</c:ser>")
            }
            ChartType::Scatter => {
                let xs: Vec<Option<f64>> =
                    s.x.clone().unwrap_or_else(|| (1..=s.values.len()).map(|k| Some(k as f64)).collect());
                let xv = format!(
                    "<c:xVal>{}</c:xVal>",
                    num_ref(&format!("Sheet1!$A$2:$A${}", xs.len() + 1), &xs, "General")
                );
                let yv = format!(
                    "<c:yVal>{}</c:yVal>",
                    num_ref(&format!("Sheet1!${c}$2:${c}${}", s.values.len() + 1), &s.values, &self.code)
                );
                format!(
                    r#"<c:ser>{head}<c:spPr><a:ln w="19050"><a:noFill/></a:ln></c:spPr><c:marker><c:symbol val="circle"/><c:size val="7"/><c:spPr><a:solidFill><a:srgbClr val="{fill}"/></a:solidFill></c:spPr></c:marker>{xv}{yv}<c:smooth val="0"/></c:ser>"#
                )
            }
            _ if line => format!(
                r#"<c:ser>{head}{sp}<c:marker><c:symbol val="circle"/><c:size val="6"/><c:spPr><a:solidFill><a:srgbClr val="{fill}"/></a:solidFill></c:spPr></c:marker>{cat}{val}<c:smooth val="0"/></c:ser>"#
            ),
            ChartType::Area => format!("<c:ser>{head}{sp}{cat}{val}</c:ser>"),
            _ => format!(r#"<c:ser>{head}{sp}<c:invertIfNegative val="0"/>{cat}{val}</c:ser>"#),
        }
    }

    fn bar_group(&self, idx: &[usize], ax: (u32, u32)) -> String {
        let sers: String = idx.iter().map(|&i| self.ser(i, &self.spec.series[i], false)).collect();
        let dir = if self.spec.horizontal { "bar" } else { "col" };
        let (grouping, overlap) = if self.spec.stacked { ("stacked", 100) } else { ("clustered", -10) };
        format!(
            r#"<c:barChart><c:barDir val="{dir}"/><c:grouping val="{grouping}"/><c:varyColors val="0"/>{sers}<c:gapWidth val="60"/><c:overlap val="{overlap}"/><c:axId val="{}"/><c:axId val="{}"/></c:barChart>"#,
            ax.0, ax.1
        )
    }

    fn line_group(&self, idx: &[usize], ax: (u32, u32)) -> String {
        let sers: String = idx.iter().map(|&i| self.ser(i, &self.spec.series[i], true)).collect();
        format!(
            r#"<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>{sers}<c:marker val="1"/><c:axId val="{}"/><c:axId val="{}"/></c:lineChart>"#,
            ax.0, ax.1
        )
    }

    fn axis_title(&self, t: &Option<String>) -> String {
        t.as_deref().map(|t| title(t, 1200)).unwrap_or_default()
    }

    fn cat_ax(&self, id: u32, cross: u32, pos: &str, delete: bool, t: &Option<String>) -> String {
        format!(
            r#"<c:catAx><c:axId val="{id}"/><c:scaling><c:orientation val="{}"/></c:scaling><c:delete val="{}"/><c:axPos val="{pos}"/>{}<c:numFmt formatCode="General" sourceLinked="0"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="low"/><c:spPr><a:ln w="9525"><a:solidFill><a:srgbClr val="{MUTED}"/></a:solidFill></a:ln></c:spPr>{}<c:crossAx val="{cross}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>"#,
            if self.spec.horizontal { "maxMin" } else { "minMax" },
            u8::from(delete),
            self.axis_title(t),
            text_props(1200, INK, false)
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn val_ax(
        &self,
        id: u32,
        cross: u32,
        pos: &str,
        grid: bool,
        crosses: &str,
        t: &Option<String>,
        code: &str,
        floor: Option<f64>,
    ) -> String {
        let min = floor.map(|m| format!(r#"<c:min val="{}"/>"#, num(m))).unwrap_or_default();
        let grid = if grid {
            format!(
                r#"<c:majorGridlines><c:spPr><a:ln w="9525"><a:solidFill><a:srgbClr val="{RULE}"/></a:solidFill></a:ln></c:spPr></c:majorGridlines>"#
            )
        } else {
            String::new()
        };
        format!(
            r#"<c:valAx><c:axId val="{id}"/><c:scaling><c:orientation val="minMax"/>{min}</c:scaling><c:delete val="0"/><c:axPos val="{pos}"/>{grid}{}<c:numFmt formatCode="{}" sourceLinked="0"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:spPr><a:ln><a:noFill/></a:ln></c:spPr>{}<c:crossAx val="{cross}"/><c:crosses val="{crosses}"/><c:crossBetween val="between"/></c:valAx>"#,
            self.axis_title(t),
            esc(code),
            text_props(1200, MUTED, false)
        )
    }
}

/// The chart part for `spec`.
pub fn chart_xml(spec: &ChartSpec) -> String {
    let code = spec.number_format.as_deref().map(|c| NumFmt::parse(c).code()).unwrap_or_else(|| "General".into());
    let cx = Ctx { spec, code: code.clone() };
    let all: Vec<usize> = (0..spec.series.len()).collect();
    let (x_title, y_title) = (&spec.x_title, &spec.y_title);
    let plot = match spec.kind {
        ChartType::Pie => format!(
            r#"<c:pieChart><c:varyColors val="1"/>{}<c:firstSliceAng val="0"/></c:pieChart>"#,
            cx.ser(0, &spec.series[0], false)
        ),
        ChartType::Scatter => {
            let sers: String = all.iter().map(|&i| cx.ser(i, &spec.series[i], false)).collect();
            format!(
                r#"<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>{sers}<c:axId val="1"/><c:axId val="2"/></c:scatterChart>{}{}"#,
                cx.val_ax(1, 2, "b", false, "autoZero", x_title, "General", None),
                cx.val_ax(2, 1, "l", true, "autoZero", y_title, &code, None)
            )
        }
        ChartType::Bar => {
            let (cp, vp) = if spec.horizontal { ("l", "b") } else { ("b", "l") };
            format!(
                "{}{}{}",
                cx.bar_group(&all, (1, 2)),
                cx.cat_ax(1, 2, cp, false, x_title),
                cx.val_ax(2, 1, vp, true, "autoZero", y_title, &code, zero_floor(spec, |_| true))
            )
        }
        ChartType::Line => format!(
            "{}{}{}",
            cx.line_group(&all, (1, 2)),
            cx.cat_ax(1, 2, "b", false, x_title),
            cx.val_ax(2, 1, "l", true, "autoZero", y_title, &code, spec.y_min)
        ),
        ChartType::Area => {
            let sers: String = all.iter().map(|&i| cx.ser(i, &spec.series[i], false)).collect();
            let grouping = if spec.stacked { "stacked" } else { "standard" };
            format!(
                r#"<c:areaChart><c:grouping val="{grouping}"/><c:varyColors val="0"/>{sers}<c:axId val="1"/><c:axId val="2"/></c:areaChart>{}{}"#,
                cx.cat_ax(1, 2, "b", false, x_title),
                cx.val_ax(2, 1, "l", true, "autoZero", y_title, &code, zero_floor(spec, |_| true))
            )
        }
        ChartType::Combo => {
            let pick = |kind: SeriesKind, sec: bool| -> Vec<usize> {
                all.iter()
                    .copied()
                    .filter(|&i| spec.series[i].kind == kind && spec.series[i].secondary == sec)
                    .collect()
            };
            let mut groups = String::new();
            for (kind, sec) in
                [(SeriesKind::Bar, false), (SeriesKind::Bar, true), (SeriesKind::Line, false), (SeriesKind::Line, true)]
            {
                let idx = pick(kind, sec);
                if idx.is_empty() {
                    continue;
                }
                let ax = if sec { (3, 4) } else { (1, 2) };
                groups.push_str(&if kind == SeriesKind::Bar {
                    cx.bar_group(&idx, ax)
                } else {
                    cx.line_group(&idx, ax)
                });
            }
            let mut axes = format!(
                "{}{}",
                cx.cat_ax(1, 2, "b", false, x_title),
                cx.val_ax(
                    2,
                    1,
                    "l",
                    true,
                    "autoZero",
                    y_title,
                    &code,
                    zero_floor(spec, |s| !s.secondary && s.kind == SeriesKind::Bar)
                )
            );
            if spec.series.iter().any(|s| s.secondary) {
                axes.push_str(&cx.cat_ax(3, 4, "b", true, &None));
                axes.push_str(&cx.val_ax(
                    4,
                    3,
                    "r",
                    false,
                    "max",
                    &None,
                    "General",
                    zero_floor(&ChartSpec { y_min: None, ..spec.clone() }, |s| {
                        s.secondary && s.kind == SeriesKind::Bar
                    }),
                ));
            }
            format!("{groups}{axes}")
        }
    };
    let head = match &spec.title {
        Some(t) => title(t, 1600),
        None => r#"<c:autoTitleDeleted val="1"/>"#.to_string(),
    };
    let legend = match spec.legend {
        Legend::None => String::new(),
        l => format!(
            r#"<c:legend><c:legendPos val="{}"/><c:overlay val="0"/>{}</c:legend>"#,
            if l == Legend::Right { "r" } else { "b" },
            text_props(1200, INK, false)
        ),
    };
    format!(
        r#"{DECL}<c:chartSpace {C_NS}><c:roundedCorners val="0"/><c:chart>{head}<c:plotArea><c:layout/>{plot}</c:plotArea>{legend}<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart><c:spPr><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill><a:ln><a:noFill/></a:ln></c:spPr>{}</c:chartSpace>"#,
        text_props(1200, INK, false)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xml(spec: serde_json::Value) -> String {
        chart_xml(&ChartSpec::from_json(&spec).unwrap())
    }

    /// (spec, whether the value axis is pinned at zero).
    #[test]
    fn bar_and_area_value_axes_start_at_zero_and_horizontal_bars_keep_the_table_order() {
        let heights = serde_json::json!([5895, 5642, 6190, 5960]);
        let cases = [
            (
                serde_json::json!({"type": "bar", "categories": ["Kilimanjaro", "Elbrus", "Denali", "Pico"], "series": [{"name": "m", "values": heights}]}),
                true,
            ),
            (
                serde_json::json!({"type": "bar", "horizontal": true, "categories": ["a", "b", "c", "d"], "series": [{"name": "m", "values": heights}]}),
                true,
            ),
            (
                serde_json::json!({"type": "area", "categories": ["a", "b", "c", "d"], "series": [{"name": "m", "values": heights}]}),
                true,
            ),
            (
                serde_json::json!({"type": "line", "categories": ["a", "b", "c", "d"], "series": [{"name": "m", "values": heights}]}),
                false,
            ),
            (
                serde_json::json!({"type": "bar", "categories": ["a", "b"], "series": [{"name": "m", "values": [-3, 5]}]}),
                false,
            ),
        ];
        for (spec, pinned) in cases {
            let x = xml(spec.clone());
            let val = &x[x.find("<c:valAx>").unwrap()..];
            assert_eq!(
                val.contains(r#"<c:orientation val="minMax"/><c:min val="0"/></c:scaling>"#),
                pinned,
                "{spec}: {val}"
            );
            if spec["horizontal"] == true {
                let cat = &x[x.find("<c:catAx>").unwrap()..];
                assert!(
                    cat.contains(r#"<c:orientation val="maxMin"/>"#),
                    "horizontal bars list the first category on top"
                );
            }
        }
    }

    /// `yMin` in the spec is written into the value axis of every type that has one; the
    /// secondary axis of a combo keeps its own floor.
    #[test]
    fn y_min_in_the_spec_sets_the_value_axis_start() {
        let heights = [5895, 6190, 5642, 5199];
        for t in ["bar", "area", "line"] {
            for horizontal in [false, true] {
                let x = xml(serde_json::json!({"type": t, "horizontal": horizontal && t == "bar", "yMin": 5000,
                    "categories": ["a", "b", "c", "d"], "series": [{"name": "m", "values": heights}]}));
                let val = &x[x.find("<c:valAx>").unwrap()..];
                assert!(val.contains(r#"<c:min val="5000"/></c:scaling>"#), "{t}: {val}");
            }
        }
        let x = xml(serde_json::json!({"type": "combo", "yMin": 100, "categories": ["a", "b"], "series": [
            {"name": "m", "values": [150, 170]}, {"name": "r", "type": "bar", "axis": "secondary", "values": [1, 2]}]}));
        let axes: Vec<&str> = x.split("<c:valAx>").skip(1).collect();
        assert!(axes[0].contains(r#"<c:min val="100"/>"#), "{}", axes[0]);
        assert!(axes[1].contains(r#"<c:min val="0"/>"#) && !axes[1].contains(r#"val="100""#), "{}", axes[1]);
    }
}
