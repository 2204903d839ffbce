//! The `env:email` native module: `describe` and `extract` run on tokio's blocking pool over the
//! run's [`ScriptFs`] (the environment's gateway: every attachment written is a pending overlay
//! edit that passes zones and limits). `extract` is refused while a script is validated.

use std::sync::Arc;

use folio_script::blocking::{BlockingCall, BlockingSpec, blocking_function};
use folio_script::{NativeFunction, NativeModule, ScriptFs};
use folio_vfs::VPath;
use serde_json::Value;

use crate::limits::Limits;
use crate::ops::{self, ExtractOptions, MailFs};

/// The gateway as the operations see it.
pub struct GatewayFs(pub Arc<dyn ScriptFs>);

fn vpath(raw: &str) -> Result<VPath, String> {
    VPath::parse(raw).map_err(|e| format!("{raw}: {e}"))
}

impl MailFs for GatewayFs {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.0.read(&vpath(path)?).map_err(String::from)
    }
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), String> {
        let p = vpath(path)?;
        if let Some(parent) = p.parent().filter(|d| d.as_str() != "/") {
            self.0.mkdir(&parent).map_err(String::from)?;
        }
        self.0.write(&p, bytes).map_err(String::from)
    }
    fn exists(&self, path: &str) -> bool {
        vpath(path).ok().and_then(|p| self.0.stat(&p).ok().flatten()).is_some()
    }
}

fn path_arg(args: &[Value], name: &str) -> Result<String, String> {
    args.first().and_then(Value::as_str).map(str::to_string).ok_or_else(|| {
        format!("{name}: argument 1 must be the message's path (a string), e.g. {name}('/inbox/note.msg')")
    })
}

fn describe_fn(limits: Limits) -> NativeFunction {
    blocking_function(BlockingSpec::new("describe", false, "a path"), move |BlockingCall { args, fs, .. }| {
        let path = path_arg(&args, "describe")?;
        ops::describe(&GatewayFs(fs), &path, &limits).map_err(|e| e.to_string())
    })
}

fn extract_fn(limits: Limits) -> NativeFunction {
    blocking_function(
        BlockingSpec::new("extract", true, "a path and an options object"),
        move |BlockingCall { args, fs, .. }| {
            let path = path_arg(&args, "extract")?;
            let opts = ExtractOptions::from_json(args.get(1).unwrap_or(&Value::Null)).map_err(|e| e.to_string())?;
            ops::extract(&GatewayFs(fs), &path, &opts, &limits).map_err(|e| e.to_string())
        },
    )
}

/// The module's declarations (`/std/email/index.d.ts`).
pub const EMAIL_DTS: &str = include_str!("email.d.ts");
/// The module's README (`/std/email/README.md`), before the limits section.
pub const EMAIL_README: &str = include_str!("email.md");

/// `env:email` with `limits` (pass the environment's `limits.max_vfs_bytes` as `max_bytes`).
pub fn email_module(limits: Limits) -> NativeModule {
    NativeModule {
        name: "email".into(),
        description: "Email messages (.eml, Outlook .msg): describe (sender, recipients, subject, date, attachments) and extract (bodies, headers, attachments written under a folder with safe names); .mbox is counted and refused.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: EMAIL_DTS.into(),
        docs: format!(
            "{EMAIL_README}\n\n## Limits on this host\n\n- at most {} attachments per message (MAX_ATTACHMENTS), checked before anything is written\n- at most {} MIME parts (MAX_PARTS) and {} levels of embedded messages (MAX_DEPTH)\n- at most {} bytes written per call (limits.max_vfs_bytes)\n",
            limits.max_attachments, limits.max_parts, limits.max_depth, limits.max_bytes
        ),
        functions: vec![describe_fn(limits), extract_fn(limits)],
        js_api: None,
    }
}

/// The skill `reading-email`: (name, summary, body).
pub const SKILL: (&str, &str, &str) = (
    "reading-email",
    "Reading .eml and Outlook .msg messages (env:email): who, when, what, and their attachments — safely.",
    r#"# Reading email

1. `describe(path)` first: sender, recipients, subject, date and the attachments (name, size, type, inline) — it writes nothing. An `.mbox` answers with its message count only.
2. `extract(path, {include: '*.pdf'})` gives the bodies (`text`, `html`, and `rtf` for Outlook), the headers (lowercased) and writes the chosen attachments under `<message>.attachments/` (or `{dir}`); each result names the `path` it was written to.
3. Read an attachment with the module for its kind (env:documents for a PDF, env:spreadsheets for a workbook). An embedded message is written as `.eml`: describe it in turn.

```js
import { describe, extract } from 'env:email';
export default async function () {
  const d = await describe('/inbox/offer.msg');
  const x = await extract('/inbox/offer.msg', { dir: '/tmp/offer', include: '*.pdf' });
  return { from: d.from, subject: d.subject, files: x.attachments.map(a => a.path) };
}
```

Costly mistakes:
- Writing your own .msg or MIME parser: the module decodes encoded words, charsets, compressed RTF and embedded messages.
- Expecting the sender's file names verbatim: names are cut to their basename, control characters dropped, and clashes become `name-2.ext` (`originalName` keeps the sender's).
- Inline images (`cid:` parts) are skipped unless `{inline: true}`.
"#,
);
