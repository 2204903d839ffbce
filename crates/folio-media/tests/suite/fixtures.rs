//! Media made once per test process with ffmpeg's own sources (testsrc2, sine, anullsrc), tiny
//! (≤ 2 s, ≤ 160×120), and a tree over a temporary directory for the operations to work in.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use folio_budget::RunBudget;
use folio_media::{Call, Ffmpeg, MediaFs, MediaHost, MediaInfo};
use serde_json::Value;

use super::common::make;

/// The fixtures, made once: `(dir, ffmpeg)`.
pub fn fixtures() -> Option<&'static (PathBuf, Ffmpeg)> {
    static MADE: OnceLock<Option<(PathBuf, Ffmpeg)>> = OnceLock::new();
    MADE.get_or_init(|| {
        let ff = super::common::ffmpeg()?;
        let dir = std::env::temp_dir().join(format!("folio-media-fixtures-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
        let v = "testsrc2=size=160x120:rate=25";
        make(
            &ff,
            &[
                "-f",
                "lavfi",
                "-i",
                v,
                "-f",
                "lavfi",
                "-i",
                "sine=frequency=440:sample_rate=44100",
                "-t",
                "2",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-pix_fmt",
                "yuv420p",
                "-c:a",
                "aac",
                "-shortest",
                &p("v.mp4"),
            ],
        );
        make(
            &ff,
            &[
                "-f",
                "lavfi",
                "-i",
                v,
                "-f",
                "lavfi",
                "-i",
                "sine=frequency=440:sample_rate=44100",
                "-t",
                "2",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-pix_fmt",
                "yuv420p",
                "-c:a",
                "aac",
                "-shortest",
                &p("v-again.mp4"),
            ],
        );
        make(
            &ff,
            &[
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=128x96:rate=25",
                "-f",
                "lavfi",
                "-i",
                "sine=frequency=880:sample_rate=48000",
                "-t",
                "1",
                "-c:v",
                "libvpx-vp9",
                "-deadline",
                "realtime",
                "-cpu-used",
                "8",
                "-c:a",
                "libopus",
                "-shortest",
                &p("other.webm"),
            ],
        );
        make(
            &ff,
            &[
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=160x120:rate=25",
                "-t",
                "1",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-pix_fmt",
                "yuv420p",
                &p("silent.mp4"),
            ],
        );
        make(
            &ff,
            &[
                "-f",
                "lavfi",
                "-i",
                "sine=frequency=440:sample_rate=44100:duration=1",
                "-c:a",
                "pcm_s16le",
                &p("tone.wav"),
            ],
        );
        make(&ff, &["-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono", "-t", "1", "-c:a", "pcm_s16le", &p("quiet.wav")]);
        std::fs::write(
            dir.join("talk.srt"),
            "1\n00:00:00,000 --> 00:00:01,500\nHello there\n\n2\n00:00:01,500 --> 00:00:02,000\nBye\n",
        )
        .unwrap();
        make(
            &ff,
            &[
                "-i",
                &p("v.mp4"),
                "-i",
                &p("talk.srt"),
                "-map",
                "0",
                "-map",
                "1",
                "-c",
                "copy",
                "-c:s",
                "srt",
                "-metadata:s:s:0",
                "language=eng",
                &p("subs.mkv"),
            ],
        );
        make(&ff, &["-f", "lavfi", "-i", "color=c=red:size=64x48", "-frames:v", "1", &p("red.png")]);
        make(&ff, &["-f", "lavfi", "-i", "color=c=blue:size=80x40", "-frames:v", "1", &p("blue.png")]);
        Some((dir, ff))
    })
    .as_ref()
}

/// A tree over a temporary directory: `/in/<fixture>` are the fixtures, writes land under it.
pub struct Tree {
    pub dir: tempfile::TempDir,
}

impl Tree {
    pub fn host(&self, path: &str) -> PathBuf {
        self.dir.path().join(path.trim_start_matches('/'))
    }

    pub fn put(&self, path: &str, bytes: &[u8]) {
        let p = self.host(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

impl MediaFs for Tree {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        std::fs::read(self.host(path)).map_err(|e| format!("{path}: {e}"))
    }
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), String> {
        let p = self.host(path);
        std::fs::create_dir_all(p.parent().unwrap()).map_err(|e| e.to_string())?;
        std::fs::write(p, bytes).map_err(|e| format!("{path}: {e}"))
    }
}

/// A tree holding every fixture under `/in`, a host, and a staging root of its own.
pub struct World {
    pub tree: Tree,
    pub host: MediaHost,
    pub ff: Ffmpeg,
    pub temp: tempfile::TempDir,
}

pub fn world() -> Option<World> {
    let (dir, ff) = fixtures()?;
    let tree = Tree { dir: tempfile::tempdir().unwrap() };
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        tree.put(&format!("/in/{}", e.file_name().to_string_lossy()), &std::fs::read(e.path()).unwrap());
    }
    let temp = tempfile::tempdir().unwrap();
    let espeak = folio_media::discovery::find(&folio_media::Search::host(), folio_media::Tool::Espeak, None, None)
        .ok()
        .map(|c| c.path);
    let host = MediaHost::with(ff.clone(), espeak).temp_root(temp.path().to_path_buf());
    Some(World { tree, host, ff: ff.clone(), temp })
}

impl World {
    pub fn call_with(&self, budget: &RunBudget, op: &'static str, args: Value) -> Result<Value, String> {
        let args = args.as_array().cloned().unwrap_or_default();
        let cx = Call { host: &self.host, fs: &self.tree, budget, op };
        folio_media::ops::call(op, &cx, &args).map_err(|e| e.to_string())
    }

    pub fn call(&self, op: &'static str, args: Value) -> Result<Value, String> {
        self.call_with(&RunBudget::unbounded(), op, args)
    }

    pub fn info(&self, path: &str) -> MediaInfo {
        folio_media::probe(&self.ff, &self.tree.host(path)).unwrap()
    }

    /// Nothing is left in the staging root.
    pub fn assert_clean(&self) {
        let left: Vec<_> = std::fs::read_dir(self.temp.path()).unwrap().collect();
        assert!(left.is_empty(), "staging directories left behind: {left:?}");
    }
}

/// Decodes the image at `path` to RGB24 with ffmpeg: `(width, height, pixels)`.
pub fn rgb(ff: &Ffmpeg, path: &Path) -> (u32, u32, Vec<u8>) {
    let info = folio_media::probe(ff, path).unwrap();
    let (w, h) = info.size().unwrap();
    let out = std::process::Command::new(ff.path())
        .args(["-v", "error", "-i"])
        .arg(path)
        .args(["-f", "rawvideo", "-pix_fmt", "rgb24", "-frames:v", "1", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    (w, h, out.stdout)
}
