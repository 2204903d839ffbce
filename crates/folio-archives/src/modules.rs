//! The `env:archives` native module: each binding of [`crate::ops::BINDINGS`] becomes an async
//! host function whose work runs on tokio's blocking pool over the run's [`ScriptFs`] (the
//! environment's gateway, so every extracted file is a pending overlay edit that passes zones and
//! limits), with the run's budget. Writing bindings are refused during write-time validation.

use std::sync::Arc;

use folio_script::blocking::{BlockingCall, BlockingSpec, blocking_function};
use folio_script::{NativeFunction, NativeModule, ScriptFs};
use folio_vfs::{Kind, VPath};

use crate::ops::{ArchiveFs, BINDINGS, Binding, Call};
use crate::read::Limits;

/// The gateway as the operations see it.
struct GatewayFs(Arc<dyn ScriptFs>);

impl ArchiveFs for GatewayFs {
    fn read(&self, path: &VPath) -> Result<Vec<u8>, String> {
        self.0.read(path).map_err(String::from)
    }
    fn write(&self, path: &VPath, bytes: &[u8]) -> Result<(), String> {
        if let Some(parent) = path.parent().filter(|d| d.as_str() != "/") {
            self.0.mkdir(&parent).map_err(String::from)?;
        }
        self.0.write(path, bytes).map_err(String::from)
    }
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>, String> {
        self.0.glob(pattern).map_err(String::from)
    }
    fn is_dir(&self, path: &VPath) -> Result<bool, String> {
        Ok(self.0.stat(path).map_err(String::from)?.is_some_and(|s| s.kind == Kind::Dir))
    }
}

fn function(binding: &'static Binding, limits: Limits) -> NativeFunction {
    let spec = BlockingSpec::new(binding.name, binding.writes, "a path or an options object");
    blocking_function(spec, move |BlockingCall { args, fs, budget }| {
        let fs = GatewayFs(fs);
        let call = Call { fs: &fs, budget: &budget, limits };
        (binding.run)(&call, &args).map_err(|e| e.to_string())
    })
}

/// `env:archives` with `limits` (pass the environment's `limits.max_vfs_bytes` as
/// `Limits::max_bytes`; `Limits::default()` is the reference's 128 MiB and 20 000 entries).
pub fn archives_module(limits: Limits) -> NativeModule {
    NativeModule {
        name: "archives".into(),
        description: "Zip, tar and tar.gz archives: describe, list, extract (safely: traversal, links, encryption and bombs refused by name) and create.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: ARCHIVES_DTS.into(),
        docs: format!(
            "{ARCHIVES_README}\n\n## Limits on this host\n\n- at most {} entries per archive (MAX_ENTRIES)\n- at most {} bytes inflated per call (limits.max_vfs_bytes)\n",
            limits.max_entries, limits.max_bytes
        ),
        functions: BINDINGS.iter().map(|b| function(b, limits)).collect(),
        js_api: None,
    }
}

/// The module's declarations (`/std/archives/index.d.ts`).
pub const ARCHIVES_DTS: &str = include_str!("archives.d.ts");
/// The module's README (`/std/archives/README.md`), before the limits section.
pub const ARCHIVES_README: &str = include_str!("archives.md");

/// The skill `archives`: (name, summary, body).
pub const SKILL: (&str, &str, &str) = (
    "archives",
    "Opening and making zip / tar / tar.gz archives (env:archives): describe, list, extract a subset, create.",
    r#"# Archives: look inside before extracting

1. `describe(path)` first: format, entry count, declared size, the first entries, and any entry extract will refuse.
2. `list(path)` for every name; extract only what you need with `{include: '**/*.csv'}` into `/tmp` (or `/inbox/<name>/`).
3. `create(dir, '/out/bundle.zip')` packs a folder (names relative to it); `.tar` and `.tar.gz`/`.tgz` by extension.

```js
import { describe, extract, create } from 'env:archives';
export default async function main() {
  const d = await describe('/inbox/export.zip');
  const csvs = await extract('/inbox/export.zip', '/tmp/export', { include: '**/*.csv' });
  await create('/tmp/export', '/out/csvs.tar.gz', { glob: '**/*.csv' });
  return { entries: d.entries, extracted: csvs };
}
```

Costly mistakes:
- Extracting everything: entries that climb out of the folder, links, devices and encrypted entries are refused by name and nothing is written — use `include` to take the safe ones.
- Expecting nested archives to open: extraction is one level; describe an inner archive after extracting it.
- A refusal naming a limit (MAX_ENTRIES, limits.max_vfs_bytes) is a decompression bomb or a very large archive: take a subset.
"#,
);
