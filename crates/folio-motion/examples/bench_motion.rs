//! env:motion's speed on this host, in one run, beside the reference's figures:
//!
//! ```text
//! cargo run --release -p folio-motion --example bench_motion
//! ```
//!
//! Prints capture ms/frame at 960×540, 90 frames → mp4 end to end cold (a browser launched by the
//! render) and warm (reused), the speed-up of two tabs over one, a warm still at frame 60, and the
//! Chromium tree's peak resident memory. Medians over `FOLIO_BENCH_ROUNDS` rounds (default 5).

use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_budget::RunBudget;
use folio_motion::args::RenderArgs;
use folio_motion::pool::Pool;
use folio_motion::render::{FrameSink, Rendered, Request, render};
use folio_motion::site::SceneFiles;
use serde_json::{Value, json};

const SCENE: &str = r#"
import { useFrame, useVideoConfig, interpolate, spring, Easing } from 'folio/motion';
const bars = [0.42, 0.77, 0.31, 0.93, 0.58, 0.66, 0.24, 0.85];
export default function Chart() {
  const frame = useFrame();
  const { width, height, fps } = useVideoConfig();
  return (
    <div style={{ width, height, background: '#0b1020', fontFamily: 'sans-serif', position: 'relative' }}>
      <h1 style={{ color: '#fff', margin: 0, padding: 24, fontSize: 36, opacity: interpolate(frame, [0, 15], [0, 1]) }}>Quarterly revenue</h1>
      {bars.map((v, i) => {
        const s = spring(Math.max(0, frame - i * 4) / fps);
        const h = v * (height - 160) * s;
        return <div key={i} style={{ position: 'absolute', bottom: 40, left: 60 + i * ((width - 120) / bars.length), width: (width - 120) / bars.length - 16, height: h, background: `hsl(${200 + i * 12}, 70%, 55%)`, borderRadius: 6 }} />;
      })}
      <div style={{ position: 'absolute', right: 24, bottom: 8, color: '#8899bb', fontSize: 14 }}>{(frame / fps).toFixed(2)} s</div>
    </div>
  );
}
"#;

struct One(String);
impl SceneFiles for One {
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        (path == "/chart.jsx").then(|| self.0.clone().into_bytes())
    }
}

struct Discard;
impl FrameSink for Discard {
    fn frame(&mut self, _: u64, _: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

fn go(pool: &Arc<Pool>, ff: Option<&folio_media::Ffmpeg>, out: &str, args: Value, still: bool) -> Rendered {
    let args = match RenderArgs::from_json(&args, still) {
        Ok(a) => a,
        Err(e) => fail(&e.to_string()),
    };
    let req = Request { files: Arc::new(One(SCENE.into())), scene: "/chart.jsx".into(), out: out.into(), args, still };
    match render(pool, ff, 1800, req, &RunBudget::unbounded(), &mut Discard) {
        Ok(r) => r,
        Err(e) => fail(&e.to_string()),
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("bench: {msg}");
    std::process::exit(1)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let rounds: usize = std::env::var("FOLIO_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5).max(1);
    let Some(found) = folio_motion::discovery::find(None) else {
        fail("no Chromium-family browser — run scripts/install.sh")
    };
    let ff = folio_media::Ffmpeg::discover(None).ok();
    if ff.is_none() {
        fail("no ffmpeg — run scripts/install.sh");
    }
    let video = json!({"width": 960, "height": 540, "fps": 30, "durationInFrames": 90});
    let (mut cold, mut warm, mut capture, mut one_tab, mut two_tab, mut stills) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut warm_one = vec![];
    let mut peak = 0u64;
    for _ in 0..rounds {
        // Cold: a new environment's browser, launched by the render.
        let pool = Pool::new(found.clone(), Duration::from_secs(30));
        let t = Instant::now();
        let r = go(&pool, ff.as_ref(), "/out/a.mp4", video.clone(), false);
        cold.push(ms(t.elapsed()));
        peak = peak.max(r.timing.browser_peak_bytes);
        // Warm: the same browser again.
        let t = Instant::now();
        let r = go(&pool, ff.as_ref(), "/out/a.mp4", video.clone(), false);
        warm.push(ms(t.elapsed()));
        peak = peak.max(r.timing.browser_peak_bytes);
        // Warm with one tab (the encoder has a core to itself).
        let mut one = video.clone();
        one["tabs"] = json!(1);
        let t = Instant::now();
        go(&pool, ff.as_ref(), "/out/a.mp4", one, false);
        warm_one.push(ms(t.elapsed()));
        // Capture alone, one tab and two, to a frames directory (no encoder).
        let mut a = video.clone();
        a["tabs"] = json!(1);
        let r1 = go(&pool, None, "/out/frames", a.clone(), false);
        capture.push(ms(r1.timing.capture) / 90.0);
        one_tab.push(ms(r1.timing.capture));
        a["tabs"] = json!(2);
        let r2 = go(&pool, None, "/out/frames", a, false);
        two_tab.push(ms(r2.timing.capture));
        // A warm still at frame 60.
        let t = Instant::now();
        go(&pool, None, "/tmp/s.png", json!({"width": 960, "height": 540, "frame": 60, "durationInFrames": 90}), true);
        stills.push(ms(t.elapsed()));
        pool.close();
    }
    let (cold, warm, capture) = (median(cold), median(warm), median(capture));
    let speedup = median(one_tab) / median(two_tab);
    let still = median(stills);
    let peak_mb = peak as f64 / 1_048_576.0;
    println!("env:motion on this host ({}; {} rounds, medians)", found.path.display(), rounds);
    println!("{:<44} {:>10} {:>10} {:>12}", "", "folio", "target", "reference");
    println!("{:<44} {:>8.1}ms {:>10} {:>12}", "capture per frame, 960x540 (one tab)", capture, "<= 25 ms", "~70 ms");
    println!(
        "{:<44} {:>9.2}s {:>10} {:>12}",
        "90 frames -> mp4, cold (launch included)",
        cold / 1000.0,
        "<= 3 s",
        "10.5 s"
    );
    println!(
        "{:<44} {:>9.2}s {:>10} {:>12}",
        "90 frames -> mp4, warm (browser reused)",
        warm / 1000.0,
        "<= 2 s",
        "8.8 s"
    );
    println!(
        "{:<44} {:>9.2}s {:>10} {:>12}",
        "90 frames -> mp4, warm, one tab",
        median(warm_one.clone()) / 1000.0,
        "-",
        "-"
    );
    println!("{:<44} {:>9.2}x {:>10} {:>12}", "capture speed-up with 2 tabs", speedup, ">= 1.6x", "-");
    println!("{:<44} {:>9.2}s {:>10} {:>12}", "still at frame 60, warm", still / 1000.0, "<= 0.3 s", "0.86 s");
    println!("{:<44} {:>8.0}MB {:>10} {:>12}", "Chromium tree peak resident (RSS sum)", peak_mb, "-", "741 MB RSS");
    println!(
        "{}",
        json!({"area": "motion", "capture_ms_per_frame": capture, "mp4_90_cold_s": cold / 1000.0, "mp4_90_warm_s": warm / 1000.0, "mp4_90_warm_one_tab_s": median(warm_one) / 1000.0,
               "two_tab_speedup": speedup, "still_warm_s": still / 1000.0, "browser_peak_mb": peak_mb, "rounds": rounds})
    );
}
