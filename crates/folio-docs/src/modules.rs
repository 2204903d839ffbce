//! The `env:documents` native module for folio-script's registry. Each binding of
//! [`crate::ops::BINDINGS`] becomes an async host function whose work runs on tokio's blocking
//! pool (the run waits for it through `CallContext::work`); writing bindings are refused during
//! write-time validation. A small `js_api` shapes the flat natives into `pdf.*` and `docx.*`.
//!
//! Register it with `registry.register_native(documents_module(renderer))`.

use std::sync::Arc;

use folio_render::Renderer;
use folio_script::blocking::{BlockingCall, BlockingSpec, blocking_function};
use folio_script::{NativeFunction, NativeModule, ScriptFs};
use folio_vfs::VPath;

use crate::docxread::DEFAULT_CAP;
use crate::ops::{self, Binding, Call, DocFs};

struct GatewayFs(Arc<dyn ScriptFs>);

fn vpath(raw: &str) -> Result<VPath, String> {
    VPath::parse(raw).map_err(|e| format!("{raw}: {e}"))
}

impl DocFs for GatewayFs {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.0.read(&vpath(path)?).map_err(|e| e.to_string())
    }
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), String> {
        let p = vpath(path)?;
        if let Some(parent) = p.parent().filter(|d| d.as_str() != "/") {
            self.0.mkdir(&parent).map_err(|e| e.to_string())?;
        }
        self.0.write(&p, bytes).map_err(|e| e.to_string())
    }
}

fn script_name(native: &str) -> String {
    native.replacen('_', ".", 1)
}

fn function(binding: &'static Binding, renderer: Arc<Renderer>) -> NativeFunction {
    let spec = BlockingSpec {
        name: binding.name,
        label: script_name(binding.name),
        writes: binding.writes,
        accepts: "a path or an options object",
    };
    blocking_function(spec, move |BlockingCall { args, fs, budget }| {
        let fs = GatewayFs(fs);
        let call = Call { fs: &fs, renderer: &renderer, cap: DEFAULT_CAP, budget: &budget };
        (binding.run)(&call, &args).map_err(|e| e.to_string())
    })
}

/// The namespace the script sees: `describe`, `pdf.*`, `docx.*`.
const JS_API: &str = r#"(n) => {
  const pdf = {}, docx = {};
  for (const k of Object.keys(n)) {
    if (k.startsWith('pdf_')) pdf[k.slice(4)] = n[k];
    else if (k.startsWith('docx_')) docx[k.slice(5)] = n[k];
  }
  return { describe: n.describe, pdf, docx };
}"#;

/// `env:documents`, reading PDF text through `renderer`'s PDFium.
pub fn documents_module(renderer: Arc<Renderer>) -> NativeModule {
    NativeModule {
        name: "documents".into(),
        description: "PDF and Word documents: write a report or memo from one spec (PDF and DOCX, full Unicode), read text and structure, merge, split, pick and rotate pages, metadata, forms, replace text in a DOCX.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: DOCUMENTS_DTS.into(),
        docs: DOCUMENTS_README.into(),
        functions: ops::BINDINGS.iter().map(|b| function(b, Arc::clone(&renderer))).collect(),
        js_api: Some(JS_API.into()),
    }
}

/// The module's declarations (`/std/documents/index.d.ts`).
pub const DOCUMENTS_DTS: &str = include_str!("documents.d.ts");
/// The module's README (`/std/documents/README.md`).
pub const DOCUMENTS_README: &str = include_str!("documents.md");

/// The skill `documents-quick`: (name, summary, body).
pub const SKILL: (&str, &str, &str) = (
    "documents-quick",
    "Reports and memos (env:documents): one spec → PDF or DOCX, then re-read and look before present.",
    r#"# Documents: write from a spec, then check what you made

1. Write the content once as a spec and make the PDF and/or DOCX from it: `pdf.create(path, spec)`, `docx.create(path, spec)`.
2. Re-read it: `pdf.extractText(path)` (page markers, each page `text`/`scanned`/`empty`) or `docx.extractText(path)`; check every number and name you meant to write is there.
3. Look at it: render a page with env:render (`rasterize('/out/report.pdf', '/tmp/pages', {pages: [1]})`) and `view_image` it before you `present`.

```js
import { pdf, docx } from 'env:documents';
export default async function main() {
  const spec = {
    title: 'Q3 report', pageSize: 'a4', header: 'ACME — Q3', footer: 'Confidential', pageNumbers: true,
    content: [
      { heading: 'Summary' },
      { text: [{ text: 'Revenue grew ', }, { text: '9%', bold: true }, ' — Σύνοψη, Сводка.'] },
      { bullets: ['North ahead of plan', ['14 new accounts'], 'South on plan'] },
      { table: { headers: ['Region', 'Revenue'], rows: [['North', 1200], ['South', 980]] } },
      { image: '/tmp/chart.png', width: 400 },
      { pageBreak: true },
      { heading: 'Details', level: 2 },
    ],
  };
  await pdf.create('/out/q3.pdf', spec);
  await docx.create('/out/q3.docx', spec);
  return (await pdf.extractText('/out/q3.pdf')).perPage.map(p => p.kind);
}
```

Costly mistakes:
- A character the bundled font (DejaVu Sans) lacks — CJK, Devanagari, Thai — is refused by name before anything is written; change that text.
- Images must be PNG or JPEG; convert others with env:images first.
- An encrypted PDF is refused with the fix; `describe` still reports it.
- `docx.replaceText` matches literally within one paragraph and throws when nothing matched; `extractText` first.
"#,
);
