//! The `env:slides` native module: `describe`, `create`, `extract`, `outline`, `replaceText`,
//! reading and writing through the run's gateway. Each runs on the script's thread (a deck
//! takes milliseconds); writers are refused during write-time validation. Register with
//! `registry.register_native(slides_module())`.

use std::sync::Arc;

use folio_script::{CallContext, HostFn, HostValue, NativeFunction, NativeModule};
use folio_vfs::VPath;
use serde_json::{Value, json};

use crate::Deck;

fn arg(args: &[HostValue], i: usize) -> Result<Value, String> {
    match args.get(i) {
        None | Some(HostValue::Undefined) => Ok(Value::Null),
        Some(HostValue::Json(v)) => Ok(v.clone()),
        Some(HostValue::Bytes(_)) => Err(format!("argument {} must be a path, a spec or options, not bytes", i + 1)),
    }
}

fn path_arg(args: &[HostValue], i: usize, what: &str) -> Result<VPath, String> {
    match arg(args, i)? {
        Value::String(s) => VPath::parse(&s).map_err(|e| format!("{s}: {e}")),
        Value::Object(m) if m.get("path").is_some_and(Value::is_string) => {
            let s = m.get("path").and_then(Value::as_str).unwrap_or_default();
            VPath::parse(s).map_err(|e| format!("{s}: {e}"))
        }
        other => Err(format!("{what} must be a path like '/in/deck.pptx', not {other}")),
    }
}

fn read(cx: &CallContext, p: &VPath) -> Result<Vec<u8>, String> {
    cx.fs.read(p).map_err(|e| e.to_string())
}

fn write(cx: &CallContext, p: &VPath, bytes: &[u8]) -> Result<(), String> {
    if let Some(parent) = p.parent().filter(|d| d.as_str() != "/") {
        cx.fs.mkdir(&parent).map_err(|e| e.to_string())?;
    }
    cx.fs.write(p, bytes).map_err(|e| e.to_string())
}

fn refuse_validation(cx: &CallContext, name: &str) -> Result<(), String> {
    if cx.read_only {
        return Err(format!(
            "{name} writes a file, which is not allowed while a script is being validated — call it inside the default export"
        ));
    }
    Ok(())
}

fn create(args: &[HostValue], cx: &CallContext) -> Result<Value, String> {
    refuse_validation(cx, "create")?;
    let deck = Deck::from_json(&arg(args, 0)?).map_err(|e| e.to_string())?;
    let out = path_arg(args, 1, "create's output")?;
    if !out.as_str().to_ascii_lowercase().ends_with(".pptx") {
        return Err(format!("{out}: the output must end in .pptx — hint: '/out/deck.pptx'"));
    }
    let images = |p: &str| -> Result<Vec<u8>, String> {
        let vp = VPath::parse(p).map_err(|e| e.to_string())?;
        cx.fs.read(&vp).map_err(|e| e.to_string())
    };
    let made = crate::create(&deck, &images).map_err(|e| e.to_string())?;
    write(cx, &out, &made.bytes)?;
    Ok(
        json!({"path": out.as_str(), "slides": made.slides, "charts": made.charts, "bytes": made.bytes.len(), "warnings": made.warnings}),
    )
}

fn rules(v: &Value) -> Result<Vec<(String, String)>, String> {
    let bad = || "rules must be {'old': 'new', …}, [['old', 'new'], …] or [{find, replace}, …]".to_string();
    match v {
        Value::Object(m) => {
            m.iter().map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())).ok_or_else(bad)).collect()
        }
        Value::Array(items) => items
            .iter()
            .map(|it| match it {
                Value::Array(p) if p.len() == 2 => match (p[0].as_str(), p[1].as_str()) {
                    (Some(a), Some(b)) => Ok((a.to_string(), b.to_string())),
                    _ => Err(bad()),
                },
                Value::Object(m) => match (
                    m.get("find").or(m.get("from")).and_then(Value::as_str),
                    m.get("replace").or(m.get("to")).and_then(Value::as_str),
                ) {
                    (Some(a), Some(b)) => Ok((a.to_string(), b.to_string())),
                    _ => Err(bad()),
                },
                _ => Err(bad()),
            })
            .collect(),
        _ => Err(bad()),
    }
}

fn replace(args: &[HostValue], cx: &CallContext) -> Result<Value, String> {
    refuse_validation(cx, "replaceText")?;
    let p = path_arg(args, 0, "replaceText's path")?;
    let rules = rules(&arg(args, 1)?)?;
    let opts = arg(args, 2)?;
    let slides: Option<Vec<usize>> = match opts.get("slides") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(vec![n.as_u64().unwrap_or(0) as usize]),
        Some(Value::Array(a)) => Some(a.iter().map(|n| n.as_u64().unwrap_or(0) as usize).collect()),
        Some(o) => return Err(format!("slides must be a number or an array of numbers, not {o}")),
    };
    let notes = opts.get("notes").and_then(Value::as_bool).unwrap_or(true);
    let out = match opts.get("output").and_then(Value::as_str) {
        Some(o) => VPath::parse(o).map_err(|e| format!("{o}: {e}"))?,
        None => p.clone(),
    };
    let bytes = read(cx, &p)?;
    let (new, r) =
        crate::replace_text(p.as_str(), &bytes, &rules, slides.as_deref(), notes).map_err(|e| e.to_string())?;
    write(cx, &out, &new)?;
    let mut v = serde_json::to_value(r).map_err(|e| e.to_string())?;
    v["path"] = json!(out.as_str());
    Ok(v)
}

type Op = fn(&[HostValue], &CallContext) -> Result<Value, String>;

fn reader(f: fn(&str, &[u8]) -> Result<Value, String>) -> impl Fn(&[HostValue], &CallContext) -> Result<Value, String> {
    move |args, cx| {
        let p = path_arg(args, 0, "the path")?;
        f(p.as_str(), &read(cx, &p)?)
    }
}

fn sync(
    name: &str,
    f: impl Fn(&[HostValue], &CallContext) -> Result<Value, String> + Send + Sync + 'static,
) -> NativeFunction {
    NativeFunction {
        name: name.into(),
        call: HostFn::Sync(Arc::new(move |args: Vec<HostValue>, cx: &CallContext| f(&args, cx).map(HostValue::Json))),
    }
}

/// `env:slides`.
pub fn slides_module() -> NativeModule {
    let describe = reader(|p, b| {
        crate::describe(p, b)
            .map_err(|e| e.to_string())
            .and_then(|s| serde_json::to_value(s).map_err(|e| e.to_string()))
    });
    let extract = reader(|p, b| {
        crate::extract(p, b).map_err(|e| e.to_string()).and_then(|s| serde_json::to_value(s).map_err(|e| e.to_string()))
    });
    let outline = reader(|p, b| crate::outline(p, b).map(Value::String).map_err(|e| e.to_string()));
    let functions = vec![
        sync("describe", describe),
        sync("create", create as Op),
        sync("extract", extract),
        sync("outline", outline),
        sync("replaceText", replace as Op),
    ];
    NativeModule {
        name: "slides".into(),
        description: "PowerPoint decks: create from a spec (bullets, tables, metrics, images, native charts, notes, footer), read back as outline, text and notes, replace text.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: SLIDES_DTS.into(),
        docs: SLIDES_README.into(),
        functions,
        js_api: None,
    }
}

/// The module's declarations (`/std/slides/index.d.ts`).
pub const SLIDES_DTS: &str = include_str!("slides.d.ts");
/// The module's README (`/std/slides/README.md`).
pub const SLIDES_README: &str = include_str!("slides.md");

/// The skill `slides-quick`: (name, summary, body).
pub const SKILL: (&str, &str, &str) = (
    "slides-quick",
    "A deck in one call (env:slides create), then re-read it and look at it.",
    r#"# Decks: one spec, then check what you made

```js
import { create, outline } from 'env:slides';
export default async function main() {
  const r = await create({
    title: 'Q3 review', subtitle: 'Finance, October', footer: 'Acme · Confidential',
    slides: [
      { title: 'Highlights', bullets: ['Revenue up 9%', '  EMEA led the growth', 'Churn flat'], notes: 'Open with the headline.' },
      { title: 'Revenue', metric: { value: '$4.2M', caption: 'Q3 revenue, +9% QoQ' } },
      { title: 'By region', chart: { type: 'bar', categories: ['NA', 'EMEA', 'APAC'], series: [{ name: 'Q3', values: [2.1, 1.4, 0.7] }] } },
      { title: 'Detail', table: [['Region', 'Revenue'], ['NA', '$2.1M'], ['EMEA', '$1.4M']] },
    ],
  }, '/out/q3-review.pptx');
  return { made: r, outline: await outline('/out/q3-review.pptx') };
}
```

- Bullets: two leading spaces per indent level. A table takes the slide's body and continues onto "(cont.)" slides when long.
- `chart` is a native, editable PowerPoint chart (same spec as env:charts); `image` (a PNG/JPEG path) sits on the right half.
- Check: `outline`/`extract` the file you wrote, and render it (env:render) to `view_image` a slide before you present it.
- Editing a deck someone gave you: `replaceText(path, {'Q3': 'Q4'}, {output: '/out/q4.pptx'})` — only matched slides change; no match throws.
"#,
);
