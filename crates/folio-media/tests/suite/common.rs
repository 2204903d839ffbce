//! Shared test helpers: ffmpeg on this host, media made with its test sources, and probes.

use std::path::{Path, PathBuf};
use std::process::Command;

use folio_media::{Ffmpeg, MediaInfo};

/// ffmpeg on this host; the test is skipped (with a printed reason) when there is none.
pub fn ffmpeg() -> Option<Ffmpeg> {
    match Ffmpeg::discover(None) {
        Ok(f) if f.ffprobe().is_some() => Some(f),
        Ok(_) => {
            eprintln!("skipped: ffprobe is not installed (scripts/install.sh installs it)");
            None
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

/// Runs ffmpeg with `args` (after `-hide_banner -loglevel error -y`) and asserts success.
pub fn make(ff: &Ffmpeg, args: &[&str]) {
    let out = Command::new(ff.path())
        .args(["-hide_banner", "-loglevel", "error", "-y", "-nostdin"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "ffmpeg {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// `n` PNG frames of `w`×`h` (testsrc2), as bytes.
pub fn png_frames(ff: &Ffmpeg, dir: &Path, w: u32, h: u32, n: u32) -> Vec<Vec<u8>> {
    let pattern = dir.join("f-%03d.png");
    make(
        ff,
        &[
            "-f",
            "lavfi",
            "-i",
            &format!("testsrc2=size={}x{}:rate=10,format=rgb24,crop={w}:{h}", w + w % 2, h + h % 2),
            "-frames:v",
            &n.to_string(),
            pattern.to_str().unwrap(),
        ],
    );
    (1..=n).map(|i| std::fs::read(dir.join(format!("f-{i:03}.png"))).unwrap()).collect()
}

/// The probe of `path`.
pub fn info(ff: &Ffmpeg, path: &Path) -> MediaInfo {
    folio_media::probe(ff, path).unwrap()
}

/// Counts the video frames of `path` by decoding it.
pub fn count_frames(ff: &Ffmpeg, path: &Path) -> u64 {
    let out = Command::new(ff.ffprobe().unwrap())
        .args([
            "-v",
            "error",
            "-count_frames",
            "-select_streams",
            "v:0",
            "-show_entries",
            "stream=nb_read_frames",
            "-of",
            "csv=p=0",
        ])
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// A fresh temporary directory.
pub fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// `dir/name`.
pub fn at(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}
