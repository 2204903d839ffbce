//! The `env:charts` native module: `render(spec, {output, width?, height?, scale?})` writes a
//! PNG or SVG (by the output's extension) through the run's gateway and returns
//! `{path, width, height, format, warnings}`; `toSvg(spec, {width?, height?})` returns the SVG
//! text. Both run on the script's thread (a chart takes milliseconds); `render` is refused during
//! write-time validation. Register with `registry.register_native(charts_module())`.

use std::sync::Arc;

use folio_script::{CallContext, HostFn, HostValue, NativeFunction, NativeModule};
use folio_vfs::VPath;
use serde_json::{Value, json};

use crate::{ChartError, ChartSpec, DEFAULT_SIZE};

/// The options `render` and `toSvg` accept, for messages.
pub const OPTIONS: &str = "output, width, height, scale";

fn arg(args: &[HostValue], i: usize) -> Result<Value, String> {
    match args.get(i) {
        None | Some(HostValue::Undefined) => Ok(Value::Null),
        Some(HostValue::Json(v)) => Ok(v.clone()),
        Some(HostValue::Bytes(_)) => Err(format!("argument {} must be a spec or an options object, not bytes", i + 1)),
    }
}

struct Opts {
    output: Option<String>,
    width: u32,
    height: u32,
    scale: f32,
}

fn opts(v: &Value) -> Result<Opts, ChartError> {
    let mut o = Opts { output: None, width: DEFAULT_SIZE.0, height: DEFAULT_SIZE.1, scale: 1.0 };
    let map = match v {
        Value::Null => return Ok(o),
        Value::String(s) => {
            o.output = Some(s.clone());
            return Ok(o);
        }
        Value::Object(m) => m,
        _ => return Err(ChartError::Output(format!("options must be an object with: {OPTIONS}"))),
    };
    for (k, val) in map {
        let num = || val.as_f64().ok_or_else(|| ChartError::Output(format!("{k} must be a number, not {val}")));
        match k.as_str() {
            "output" | "path" => o.output = val.as_str().map(str::to_string),
            "width" => o.width = num()?.round() as u32,
            "height" => o.height = num()?.round() as u32,
            "scale" => o.scale = num()? as f32,
            _ => return Err(ChartError::Output(format!("unknown option {k:?} — valid options are: {OPTIONS}"))),
        }
    }
    Ok(o)
}

fn render(args: &[HostValue], cx: &CallContext) -> Result<Value, String> {
    if cx.read_only {
        return Err("render writes a file, which is not allowed while a script is being validated — call it inside the default export".into());
    }
    let spec = ChartSpec::from_json(&arg(args, 0)?).map_err(|e| e.to_string())?;
    let o = opts(&arg(args, 1)?).map_err(|e| e.to_string())?;
    let Some(output) = o.output else {
        return Err("render needs {output: '/out/chart.png'} (or .svg) — hint: toSvg(spec) returns the SVG text without writing".into());
    };
    let path = VPath::parse(&output).map_err(|e| format!("{output}: {e}"))?;
    let ext = output.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    let (bytes, width, height, warnings, format) = match ext.as_str() {
        "png" => {
            let p = crate::render_png(&spec, o.width, o.height, o.scale).map_err(|e| e.to_string())?;
            (p.png, p.width, p.height, p.warnings, "png")
        }
        "svg" => {
            let d = crate::to_svg(&spec, o.width, o.height).map_err(|e| e.to_string())?;
            (d.svg.into_bytes(), o.width, o.height, d.warnings, "svg")
        }
        _ => return Err(format!("{output}: the output must end in .png or .svg — hint: '/out/chart.png'")),
    };
    if let Some(parent) = path.parent().filter(|d| d.as_str() != "/") {
        cx.fs.mkdir(&parent).map_err(|e| e.to_string())?;
    }
    cx.fs.write(&path, &bytes).map_err(|e| e.to_string())?;
    Ok(
        json!({"path": path.as_str(), "width": width, "height": height, "format": format, "bytes": bytes.len(), "warnings": warnings}),
    )
}

fn to_svg(args: &[HostValue]) -> Result<Value, String> {
    let spec = ChartSpec::from_json(&arg(args, 0)?).map_err(|e| e.to_string())?;
    let o = opts(&arg(args, 1)?).map_err(|e| e.to_string())?;
    Ok(Value::String(crate::to_svg(&spec, o.width, o.height).map_err(|e| e.to_string())?.svg))
}

/// `env:charts`.
pub fn charts_module() -> NativeModule {
    let functions = vec![
        NativeFunction {
            name: "render".into(),
            call: HostFn::Sync(Arc::new(|args: Vec<HostValue>, cx: &CallContext| {
                render(&args, cx).map(HostValue::Json)
            })),
        },
        NativeFunction {
            name: "toSvg".into(),
            call: HostFn::Sync(Arc::new(|args: Vec<HostValue>, _cx: &CallContext| to_svg(&args).map(HostValue::Json))),
        },
    ];
    NativeModule {
        name: "charts".into(),
        description: "Bar, line, area, pie, scatter and combo charts from a small spec, as PNG or SVG at a given size, legible by default.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: CHARTS_DTS.into(),
        docs: CHARTS_README.into(),
        functions,
        js_api: None,
    }
}

/// The module's declarations (`/std/charts/index.d.ts`).
pub const CHARTS_DTS: &str = include_str!("charts.d.ts");
/// The module's README (`/std/charts/README.md`).
pub const CHARTS_README: &str = include_str!("charts.md");

/// The skill `charts-quick`: (name, summary, body).
pub const SKILL: (&str, &str, &str) = (
    "charts-quick",
    "Charts for reports and decks (env:charts): one spec, PNG or SVG, then look at it.",
    r#"# Charts: one spec, one call, then look

```js
import { render } from 'env:charts';
export default async function main() {
  const r = await render({
    type: 'bar', title: 'Revenue by region', numberFormat: '$#,##0',
    categories: ['North America', 'EMEA', 'APAC'],
    series: [{ name: '2024', values: [1250000, 980000, -120000] }, { name: '2025', values: [1400000, 1010000, 150000] }],
  }, { output: '/out/revenue.png', width: 800, height: 500, scale: 2 });
  return r; // {path, width, height, warnings}
}
```

- Types: bar (horizontal, stacked), line, area (stacked), pie (one series, no negatives), scatter (`x` per series), combo (`type: 'line'` per series, `axis: 'secondary'`).
- Read `warnings`: skipped empty values, shortened labels, legend entries with no room.
- `view_image` the PNG before you hand it over; `scale: 2` for slides and print.
- The same spec is a native chart in a deck (`env:slides` chart element) or a workbook.
"#,
);
