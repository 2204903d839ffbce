//! The capture layer alone, on a hand-written page (no React): the page is served by the site,
//! time comes from a tiny clock the test injects, and two fresh browsers give byte-identical
//! frames.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_motion::browser::Browser;
use folio_motion::site::{SceneFiles, Site};
use folio_motion::tab::{Tab, TabParams};
use folio_motion::transform::Graph;

struct NoFiles;
impl SceneFiles for NoFiles {
    fn read(&self, _: &str) -> Option<Vec<u8>> {
        None
    }
}

const PAGE: &str = r#"<!doctype html><html><body style="margin:0;background:#fff">
<canvas id=c width=960 height=540></canvas>
<div id=box style="position:absolute;left:0;top:200px;width:80px;height:80px;background:#36c"></div>
<script>
const c = document.getElementById('c').getContext('2d');
window.__folio = { mounted: true, errors: [], drive(f) {
  c.clearRect(0,0,960,540);
  for (let i=0;i<12;i++){ c.beginPath(); c.arc(80+i*70, 100+Math.sin(f/5+i)*40, 20, 0, 7); c.fillStyle=`hsl(${i*30},70%,50%)`; c.fill(); }
  document.getElementById('box').style.transform = `translateX(${f*10}px) rotate(${f*6}deg)`;
} };
</script></body></html>"#;

fn browser_path() -> Option<std::path::PathBuf> {
    Some(super::pool().found().path.clone())
}

async fn frames(path: &std::path::Path, begin_frame: bool, n: u32) -> (Vec<[u8; 32]>, Duration) {
    let mut own = BTreeMap::new();
    own.insert("page.html".to_string(), ("text/html; charset=utf-8", Arc::<[u8]>::from(PAGE.as_bytes())));
    let site = Arc::new(Site::new(Arc::new(NoFiles), own, Graph::default()));
    let served = Arc::clone(&site);
    let browser = Browser::launch(path, begin_frame).await.expect("launch");
    let mut tab = Tab::open(
        &browser,
        TabParams { width: 960, height: 540, fps: 30, init: &[], site, page: "/__folio/page.html" },
    )
    .await
    .expect("open");
    tab.wait_mounted(Duration::from_secs(10), &served).await.expect("mounted");
    let start = Instant::now();
    let mut out = Vec::new();
    for f in 0..n {
        tab.eval(&format!("window.__folio.drive({f})")).await.expect("drive");
        let png = tab.capture().await.expect("capture");
        assert_eq!(&png[1..4], b"PNG");
        out.push(*blake3::hash(&png).as_bytes());
    }
    let took = start.elapsed();
    tab.close().await;
    (out, took)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_fresh_browsers_draw_identical_frames() {
    let Some(path) = browser_path() else { return };
    let bf = folio_motion::discovery::is_headless_shell(&path);
    let (a, took) = frames(&path, bf, 30).await;
    let (b, _) = frames(&path, bf, 30).await;
    eprintln!("30 frames in {took:?} ({:.1} ms/frame, beginFrame {bf})", took.as_secs_f64() * 1000.0 / 30.0);
    assert_eq!(a, b, "frames differ between two fresh browsers");
    let distinct: std::collections::BTreeSet<_> = a.iter().collect();
    assert!(distinct.len() > 25, "the page did not animate: {} distinct frames", distinct.len());
}
