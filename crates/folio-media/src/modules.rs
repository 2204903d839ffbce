//! The `env:media` native module for folio-script's registry. This layer only adapts: the run's
//! [`ScriptFs`] (the environment's gateway) becomes the operations' [`MediaFs`], each binding of
//! [`crate::ops::BINDINGS`] becomes an async host function whose work runs on tokio's blocking
//! pool (so a long transcode never stalls the script thread, and the run waits for it through
//! `CallContext::work`), and errors become the operation's own sentence. Writing bindings are
//! refused during write-time validation.
//!
//! Register it with `registry.register_native(media_module(host, &rows))`; folio-host does, from
//! its `MODULES` table.

use std::sync::Arc;

use folio_script::blocking::{BlockingCall, BlockingSpec, blocking_function};
use folio_script::{CallContext, HostFn, HostValue, NativeFunction, NativeModule, ScriptFs};
use folio_vfs::VPath;
use serde_json::Value;

use crate::doctor::Row;
use crate::ops::{self, Binding, Call, MediaFs, MediaHost};

/// The gateway as the operations see it.
struct GatewayFs(Arc<dyn ScriptFs>);

fn vpath(raw: &str) -> Result<VPath, String> {
    VPath::parse(raw).map_err(|e| format!("{raw}: {e}"))
}

impl MediaFs for GatewayFs {
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

fn function(binding: &'static Binding, host: Arc<MediaHost>) -> NativeFunction {
    let spec = BlockingSpec::new(binding.name, binding.writes, "a path or an options object");
    blocking_function(spec, move |BlockingCall { args, fs, budget }| {
        let fs = GatewayFs(fs);
        let call = Call { host: &host, fs: &fs, budget: &budget, op: binding.name };
        (binding.run)(&call, &args).map_err(|e| e.to_string())
    })
}

/// The doctor rows env:media uses (ffmpeg, ffprobe, espeak-ng), as a JSON array.
fn rows_json(rows: &[Row]) -> Value {
    serde_json::to_value(rows).unwrap_or(Value::Null)
}

/// `env:media` over `host`'s tools; `rows` are this start's doctor rows of those tools, written
/// at the end of /std/media/README.md and returned by `capabilities()`.
pub fn media_module(host: Arc<MediaHost>, rows: &[Row]) -> NativeModule {
    let mut on_host = String::from("\n\n## On this host\n\n");
    for row in rows {
        let mark = if row.ok { "available" } else { "MISSING" };
        on_host.push_str(&format!("- {}: {mark} — {}", row.name, row.detail));
        if !row.ok {
            on_host.push_str(&format!(" (the person can fix it with: {})", row.fix));
        }
        on_host.push('\n');
    }
    let caps = rows_json(rows);
    let capabilities = HostFn::Async(Arc::new(move |_args: Vec<HostValue>, _cx: CallContext| {
        let caps = caps.clone();
        Box::pin(async move { Ok(HostValue::Json(caps)) }) as folio_script::registry::HostFuture
    }));
    let mut functions: Vec<NativeFunction> = ops::BINDINGS.iter().map(|b| function(b, Arc::clone(&host))).collect();
    functions.push(NativeFunction { name: "capabilities".into(), call: capabilities });
    NativeModule {
        name: "media".into(),
        description: "Audio and video through ffmpeg: describe, cut, join, convert, extract audio, loudness, subtitles, slideshows, contact sheets, mix a track under a video, and speech from text.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: MEDIA_DTS.into(),
        docs: format!("{MEDIA_README}{on_host}"),
        functions,
        js_api: None,
    }
}

/// The module's declarations (`/std/media/index.d.ts`).
pub const MEDIA_DTS: &str = include_str!("media.d.ts");
/// The module's README (`/std/media/README.md`), before the "On this host" section.
pub const MEDIA_README: &str = include_str!("media.md");

/// The skill `media-files`: (name, summary, body) — how to work with recordings and clips, and
/// how to put a voice-over under a rendered animation.
pub const SKILL: (&str, &str, &str) = (
    "media-files",
    "Working with audio and video (env:media): look first, cut, join, convert, narrate.",
    r#"# Media files: describe first, then one call per step

1. `describe(path)` first: duration, streams (codec, size, fps, channels), so you cut at real times and know whether there is audio.
2. Look before you cut: `thumbnail(path, '/tmp/t.jpg', 61.5)` or `contactSheet(path, '/tmp/sheet.png', {count: 12})`, then `view_image` it.
3. Do one step per call and keep intermediates in `/tmp`; only the deliverable goes to `/out`.

```js
import { describe, clip, concat, mixAudio, speak } from 'env:media';
export default async function main() {
  const d = await describe('/in/all-hands.mp4');
  await clip('/in/all-hands.mp4', '/tmp/q3.mp4', { start: 754, end: 1312 });
  await speak('Revenue grew nine percent in the third quarter.', '/tmp/voice.wav');
  const r = await mixAudio('/tmp/q3.mp4', '/tmp/voice.wav', '/out/q3-narrated.mp4', { offset: 2, duck: true });
  return { duration: d.duration, out: r };
}
```

Costly mistakes:
- Cutting without `describe`: times past the end and a missing audio stream fail; `describe` says both up front.
- Re-encoding what `concat` can copy: clips with the same codecs are joined by stream copy (fast, lossless); mixed ones are re-encoded.
- `speak` needs the host's speech engine; `capabilities()` says whether it is there.
- Long media takes long: each call is estimated from the media's duration and refused up front when it would outlive the run — split the work.
"#,
);
