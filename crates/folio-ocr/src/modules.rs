//! The `env:ocr` native module: `describe`, `recognize` and `languages` on tokio's blocking
//! pool, reading through the run's [`ScriptFs`]. Nothing is written to the folder.

use std::sync::Arc;

use folio_script::blocking::{BlockingCall, BlockingSpec, blocking_function};
use folio_script::{NativeFunction, NativeModule, ScriptFs};
use folio_vfs::VPath;
use serde_json::Value;

use crate::ocr::{Ocr, RecognizeOptions};

fn read(fs: &Arc<dyn ScriptFs>, args: &[Value], name: &str) -> Result<(String, Vec<u8>), String> {
    let raw = args.first().and_then(Value::as_str).ok_or_else(|| {
        format!("{name}: argument 1 must be the file's path (a string), e.g. {name}('/scans/letter.pdf')")
    })?;
    let path = VPath::parse(raw).map_err(|e| format!("{name}: {raw}: {e}"))?;
    let bytes = fs.read(&path).map_err(String::from)?;
    Ok((raw.to_string(), bytes))
}

fn json<T: serde::Serialize>(v: &T) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| format!("env:ocr could not encode its result: {e}"))
}

fn describe_fn(ocr: Arc<Ocr>) -> NativeFunction {
    blocking_function(BlockingSpec::new("describe", false, "a path"), move |BlockingCall { args, fs, .. }| {
        let (path, bytes) = read(&fs, &args, "describe")?;
        json(&ocr.describe(&path, &bytes).map_err(|e| e.to_string())?)
    })
}

fn recognize_fn(ocr: Arc<Ocr>) -> NativeFunction {
    blocking_function(
        BlockingSpec::new("recognize", false, "a path and an options object"),
        move |BlockingCall { args, fs, budget }| {
            let (path, bytes) = read(&fs, &args, "recognize")?;
            let opts = RecognizeOptions::from_json(args.get(1).unwrap_or(&Value::Null)).map_err(|e| e.to_string())?;
            json(&ocr.recognize(&path, &bytes, &opts, &budget).map_err(|e| e.to_string())?)
        },
    )
}

fn languages_fn(ocr: Arc<Ocr>) -> NativeFunction {
    blocking_function(BlockingSpec::new("languages", false, "no arguments"), move |_| json(&ocr.tesseract.languages()))
}

/// The module's declarations (`/std/ocr/index.d.ts`).
pub const OCR_DTS: &str = include_str!("ocr.d.ts");

/// `env:ocr` over a found tesseract.
pub fn ocr_module(ocr: Arc<Ocr>) -> NativeModule {
    let l = ocr.limits;
    NativeModule {
        name: "ocr".into(),
        description: "Text out of scanned PDFs and photos (tesseract): describe (which pages need OCR), recognize (text per page with confidence and word boxes; pages turned upright first), languages.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: OCR_DTS.into(),
        docs: format!(
            "# env:ocr\n\nReads text from scans with {} (languages: {}).\n\n## Limits on this host\n\n- at most {} pages per recognize call (the rest are named in `note`)\n- {} dpi by default, at most {}\n- each page is refused up front when the run's budget cannot fit it (about 4 s a page at 300 dpi)\n",
            ocr.tesseract.version,
            ocr.tesseract.languages().join(", "),
            l.max_pages,
            l.dpi,
            l.max_dpi
        ),
        functions: vec![describe_fn(ocr.clone()), recognize_fn(ocr.clone()), languages_fn(ocr)],
        js_api: None,
    }
}

/// The skill `reading-a-scan`: (name, summary, body).
pub const SKILL: (&str, &str, &str) = (
    "reading-a-scan",
    "Get text out of a scanned PDF or a photo (env:ocr) — and know when not to.",
    r#"# Reading a scan

1. `describe(path)` first: it recognises nothing. If `needsOcr` is false the PDF already has a text layer: read it with `documents.extractText`, exactly and instantly.
2. `recognize(path, {pages: [1, 2], lang: 'eng', dpi: 300})` reads the pages that need it; each page costs seconds, so ask for the pages you need. Pages are turned upright first (a sideways scan reads right; `rotated` says by how much).
3. Check `confidence` (0–100) and `note`: under 65 the text is likely wrong in places; a small image reads badly; a page with a text layer is returned as it is.

```js
import { describe, recognize } from 'env:ocr';
export default async function () {
  const d = await describe('/scans/letter.pdf');
  if (!d.needsOcr) return 'use documents.extractText';
  const r = await recognize('/scans/letter.pdf', { pages: [1] });
  return { text: r.text, confidence: r.confidence, note: r.note };
}
```

Costly mistakes:
- OCR on a PDF that has text: slower and less exact than extractText.
- Asking for a language that is not in `languages()`: it is refused with the package to install.
- Trusting numbers from a low-confidence page without checking them against the page image (env:render).
"#,
);
