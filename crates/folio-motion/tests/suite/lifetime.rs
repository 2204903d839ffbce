//! Nothing outlives its process: a process that renders and exits without dropping its pool (as
//! `folio run` does, its pools in statics), and one SIGKILLed mid-render, leave no process of
//! their browser's group behind. The child records the group before it renders; the parent
//! counts the group's live processes after the child is gone.

use std::path::Path;
use std::time::{Duration, Instant};

use super::*;

/// Claims the pool's browser, writes its process group to `$FOLIO_MOTION_LIFE_PGID`, renders
/// (a still, or a long clip when `$FOLIO_MOTION_LIFE_MODE` is `long`) and leaves with
/// `process::exit`, dropping nothing; run by the tests below in child processes.
#[test]
#[ignore = "run as a child process by the lifetime tests"]
fn lifetime_child() {
    let Ok(out) = std::env::var("FOLIO_MOTION_LIFE_PGID") else { return };
    let long = std::env::var("FOLIO_MOTION_LIFE_MODE").as_deref() == Ok("long");
    let pool = pool();
    let rt = folio_motion::pool::runtime().unwrap();
    let lease = rt.block_on(pool.acquire()).unwrap();
    let pgid = lease.browser.pgid();
    drop(lease);
    std::fs::write(&out, pgid.to_string()).unwrap();
    if long {
        let (r, _) = run(&pool, scenes(), "/scenes/frame-driven.jsx", "/out/frames", small(1500), false, &unbounded());
        r.unwrap();
    } else {
        let mut args = small(16);
        args["frame"] = serde_json::json!(8);
        let (r, _) = run(&pool, scenes(), "/scenes/frame-driven.jsx", "/tmp/still.png", args, true, &unbounded());
        r.unwrap();
    }
    // Like `folio run`: the pool is never dropped, so no Drop can end the browser.
    std::mem::forget(pool);
    std::process::exit(0);
}

fn spawn_child(mode: &str, pgid_file: &Path) -> std::process::Child {
    std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "suite::lifetime::lifetime_child", "--ignored", "--quiet"])
        .env("FOLIO_MOTION_LIFE_PGID", pgid_file)
        .env("FOLIO_MOTION_LIFE_MODE", mode)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

fn read_pgid(file: &Path, within: Duration) -> u32 {
    let start = Instant::now();
    loop {
        if let Some(p) = std::fs::read_to_string(file).ok().and_then(|s| s.trim().parse().ok()) {
            return p;
        }
        assert!(start.elapsed() < within, "the child never launched its browser");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Live processes of `pgid` once they have had `within` to go (0 when all went).
fn survivors(pgid: u32, within: Duration) -> usize {
    let start = Instant::now();
    loop {
        let n = folio_budget::child::group_alive(pgid);
        if n == 0 || start.elapsed() > within {
            return n;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn no_browser_process_outlives_a_process_that_rendered_a_still_and_exited() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pgid");
    let mut child = spawn_child("still", &file);
    let status = child.wait().unwrap();
    assert!(status.success(), "the child's still failed");
    let pgid = read_pgid(&file, Duration::from_secs(1));
    let left = survivors(pgid, Duration::from_secs(5));
    folio_budget::child::kill_group(pgid);
    assert_eq!(left, 0, "{left} processes of the browser (group {pgid}) outlived the process that rendered");
}

#[test]
fn no_browser_process_outlives_a_process_killed_mid_render() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pgid");
    let mut child = spawn_child("long", &file);
    let pgid = read_pgid(&file, Duration::from_secs(60));
    assert!(folio_budget::child::group_alive(pgid) > 1, "the browser of group {pgid} is not running");
    // Let the render get going (its tabs open, frames drawn), then kill the process outright.
    std::thread::sleep(Duration::from_secs(3));
    assert!(child.try_wait().unwrap().is_none(), "the child ended before it was killed");
    child.kill().unwrap();
    child.wait().unwrap();
    let left = survivors(pgid, Duration::from_secs(5));
    folio_budget::child::kill_group(pgid);
    assert_eq!(left, 0, "{left} processes of the browser (group {pgid}) outlived the SIGKILLed process");
}
