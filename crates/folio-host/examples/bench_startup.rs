//! Where a CLI start's time goes, stage by stage, in one process: the doctor's rows (with the
//! cache warm), each registered module's construction, building the host, opening a folder,
//! and one run of a trivial script. `scripts/bench-startup.sh` measures whole processes.
//!
//! `cargo run --release -p folio-host --example bench_startup [ROUNDS]`

use std::time::Instant;

use folio_host::{Host, MODULES, Parts, Seams};
use folio_render::{HostPaths, Renderer};
use serde_json::json;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn p50(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let tmp = tempfile::tempdir()?;
    let state = tmp.path().join("state");
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder)?;
    // The first build fills the doctor cache (and binds PDFium for the process).
    let first = Instant::now();
    let host = Host::builder().state_dir(Some(state.clone())).build()?;
    println!("first host build (probes every tool, cold cache): {:.1} ms", ms(first));
    let env = host.open_folder(&folder, Seams::default())?;
    let script = "/** Returns one. */\nexport default async function main() {\n  return 1;\n}\n";
    let wrote = env.call("write_file", json!({"path": "/scripts/t.js", "content": script}));
    if wrote.status != folio_env::Status::Success {
        return Err(format!("writing the script: {}", wrote.message).into());
    }
    drop(env);

    let mut stages: Vec<(String, Vec<f64>)> = Vec::new();
    let mut record = |name: &str, value: f64| match stages.iter_mut().find(|(n, _)| n == name) {
        Some((_, v)) => v.push(value),
        None => stages.push((name.to_string(), vec![value])),
    };
    for _ in 0..rounds {
        let t = Instant::now();
        let renderer = std::sync::Arc::new(Renderer::new(HostPaths::from_host(Some(state.clone()))));
        let cache = folio_host::doctor_cache::ProbeCache::load(
            Some(&state),
            folio_host::Refresh::WhenChanged,
            folio_host::doctor_cache::spawn_probe(),
        );
        let doctor = folio_render::doctor::capabilities_with(&renderer, &cache);
        drop(cache.save());
        record("doctor rows (warm cache)", ms(t));
        let t = Instant::now();
        let motion = std::sync::Arc::new(folio_motion::modules::MotionHost::discover(None, None));
        record("env:motion discovery", ms(t));
        let parts = Parts::new(renderer, doctor, motion);
        for row in MODULES.iter().filter(|row| folio_host::modules::present(row, &parts)) {
            let t = Instant::now();
            (row.build)(&parts)?;
            record(&format!("env:{} constructed", row.name), ms(t));
        }
        let t = Instant::now();
        drop(folio_script::ModuleRegistry::with_builtins());
        record("builtins (fs, std, assert)", ms(t));
        let t = Instant::now();
        drop(folio_script::Engine::new(
            folio_script::ModuleRegistry::with_builtins(),
            folio_script::ScriptLimits::default(),
        ));
        record("Engine::new (builtins only)", ms(t));
        let t = Instant::now();
        let host = Host::builder().state_dir(Some(state.clone())).build()?;
        record("Host::build (all of the above)", ms(t));
        let t = Instant::now();
        let env = host.open_folder(&folder, Seams::default())?;
        record("Host::open_folder", ms(t));
        let t = Instant::now();
        let report = env.run_script("/scripts/t.js", json!({}), None, None)?;
        if !report.ok {
            return Err(format!("the script failed: {:?}", report.error).into());
        }
        record("run_script (trivial)", ms(t));
    }
    println!("p50 over {rounds} rounds, warm doctor cache:");
    for (name, values) in stages {
        println!("  {name:<34} {:>7.2} ms", p50(values));
    }
    Ok(())
}
