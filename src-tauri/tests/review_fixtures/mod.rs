//! A folder for the visual review tests (mock runtime and end to end): each file exists in the
//! folder in one version, and a revised version waits under `/staging/`; the folder's script
//! `/scripts/revise.js` copies the revisions over the originals, so running it leaves five
//! pending changes whose visual diffs are known:
//!
//! - `/deck.pptx`: six slides (a title slide and five), made by env:slides; slide 4's text
//!   differs;
//! - `/book.xlsx`: sheets Sales and Notes, made by env:spreadsheets; in Sales, C3 and B5 hold new
//!   values, D2 a new formula, and row 8 (Baltics) is added; Notes is the same;
//! - `/clip.mp4`: 90 frames at 30 fps made by ffmpeg (H.264); frames 30–45 get a filled box;
//! - `/chart.png`: 200×150 white; a 40×30 square is painted at (50, 40);
//! - `/bundle.zip`: `a.txt` the same, `b.txt` changed, `c.txt` removed, `d.txt` added.
//!
//! The deck and the workbook are written by the project's own modules through a script run in
//! an environment of the folder and committed; the clip by ffmpeg; the image and the archive by
//! the `image` and `zip` crates.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;

use folio_env::Status;
use folio_host::{Host, Seams};
use folio_render::{HostPaths, Platform};
use serde_json::json;

/// Writes the old versions (and the staged new ones) with env:slides and env:spreadsheets.
const MAKE: &str = r#"/** Writes the deck and the workbook, before and after. */
import * as sheets from 'env:spreadsheets';
import * as slides from 'env:slides';
const deck = (fourth) => ({
  title: 'Q3 review',
  slides: [
    { title: 'Overview', bullets: ['Revenue up 4%', 'Costs flat'] },
    { title: 'Markets', bullets: ['Five regions reported'] },
    { title: 'Regions', bullets: [fourth] },
    { title: 'Risks', bullets: ['Currency', 'Supply'] },
    { title: 'Next steps', bullets: ['Hire two analysts'] },
  ],
});
// Rows as arrays, the header first, so the columns keep this order (region is the key).
const sales = (after) => {
  const rows = [
    ['region', 'q1', 'q2', 'total'],
    ['North', 10, 12, after ? '=B2+C2+1' : '=B2+C2'],
    ['South', 20, after ? 21 : 18, 38],
    ['East', 30, 25, 55],
    ['West', after ? 17 : 15, 16, 31],
    ['Iberia', 80, 70, 150],
    ['Nordics', 120, 110, 230],
  ];
  if (after) rows.push(['Baltics', 40, 45, 85]);
  return rows;
};
export default async function make() {
  await slides.create(deck('Iberia leads growth'), '/deck.pptx');
  await slides.create(deck('Nordics lead growth, Iberia second'), '/staging/deck.pptx');
  const notes = [['note'], ['Figures in kEUR']];
  await sheets.writeSheets('/book.xlsx', { Sales: sales(false), Notes: notes }, { noHeader: true });
  await sheets.writeSheets('/staging/book.xlsx', { Sales: sales(true), Notes: notes }, { noHeader: true });
  return 'made';
}
"#;

/// The folder's script that publishes the staged revisions.
pub const REVISE: &str = r#"import { copyFileSync } from 'fs';

/** Publishes the revised deck, workbook, clip, chart and bundle from /staging. */
export default async function revise() {
  for (const name of ['deck.pptx', 'book.xlsx', 'clip.mp4', 'chart.png', 'bundle.zip']) {
    copyFileSync('/staging/' + name, '/' + name);
  }
  return 'revised 5 files';
}
"#;

/// The changed frames of the clip.
pub const CHANGED_FRAMES: (u64, u64) = (30, 45);

/// The painted square of the image: x, y, width, height in pixels of 200×150.
pub const SQUARE: (u32, u32, u32, u32) = (50, 40, 40, 30);

fn ffmpeg(out: &Path, filter: Option<&str>) {
    let mut cmd = std::process::Command::new("ffmpeg");
    cmd.args([
        "-hide_banner",
        "-loglevel",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        "testsrc2=size=160x120:rate=30:duration=3",
    ]);
    if let Some(filter) = filter {
        cmd.args(["-vf", filter]);
    }
    cmd.args(["-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", "-pix_fmt", "yuv420p", "-frames:v", "90"]);
    let status = cmd.arg(out).status().expect("ffmpeg is needed for this test: sudo apt-get install ffmpeg");
    assert!(status.success(), "ffmpeg could not make {}", out.display());
}

fn png(out: &Path, square: bool) {
    let mut img = image::RgbImage::from_pixel(200, 150, image::Rgb([255, 255, 255]));
    if square {
        let (x, y, w, h) = SQUARE;
        for py in y..y + h {
            for px in x..x + w {
                img.put_pixel(px, py, image::Rgb([200, 30, 30]));
            }
        }
    }
    img.save(out).unwrap();
}

fn zip(out: &Path, entries: &[(&str, &str)]) {
    let mut w = zip::ZipWriter::new(std::fs::File::create(out).unwrap());
    for (name, text) in entries {
        w.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        w.write_all(text.as_bytes()).unwrap();
    }
    w.finish().unwrap();
}

/// Fills `dir` with the old versions, the staged new ones and `/scripts/revise.js`.
pub fn fill(dir: &Path) {
    let staging = dir.join("staging");
    std::fs::create_dir_all(&staging).unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();

    // The deck and the workbook, by the project's own modules, committed into the folder.
    let state = tempfile::tempdir().unwrap();
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(state.path().to_path_buf());
    let host = Host::builder().state_dir(Some(state.path().to_path_buf())).paths(paths).build().unwrap();
    let env = host.open_folder(dir, Seams::default()).unwrap();
    let wrote = env.call("write_file", json!({"path": "/scripts/make.js", "content": MAKE}));
    assert_eq!(wrote.status, Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/make.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    let overlay = env.overlay().unwrap();
    overlay.commit(&folio_vfs::Selection::All, &[]).unwrap();
    assert!(dir.join("staging/book.xlsx").is_file() && dir.join("deck.pptx").is_file());

    let (first, last) = CHANGED_FRAMES;
    ffmpeg(&dir.join("clip.mp4"), None);
    let box_filter = format!("drawbox=x=40:y=30:w=80:h=60:color=red:t=fill:enable='between(n,{first},{last})'");
    ffmpeg(&staging.join("clip.mp4"), Some(&box_filter));
    png(&dir.join("chart.png"), false);
    png(&staging.join("chart.png"), true);
    zip(&dir.join("bundle.zip"), &[("a.txt", "same"), ("b.txt", "old text"), ("c.txt", "going")]);
    zip(&staging.join("bundle.zip"), &[("a.txt", "same"), ("b.txt", "new text, longer"), ("d.txt", "arrived")]);
    std::fs::write(dir.join("scripts/revise.js"), REVISE).unwrap();
}
