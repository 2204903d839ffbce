//! `folio doctor`: whether each capability works on this host, and the command that fixes it
//! when it does not. Exits 0 only when every required capability passes.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use folio_render::{HostPaths, Renderer, doctor};

pub(crate) fn run(state_dir: Option<PathBuf>, json: bool) -> Result<ExitCode> {
    let renderer = Renderer::new(HostPaths::from_host(state_dir));
    let rows = folio_render::capabilities(&renderer);
    let ready = doctor::ready(&rows);
    if json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({"ready": ready, "capabilities": rows}))?);
    } else {
        for row in &rows {
            let mark = if row.ok { "✓" } else { "✗" };
            let optional = if row.required { "" } else { " (optional)" };
            println!("{mark} {:<11} {}{optional}", row.name, row.detail);
            if !row.ok {
                println!("  fix: {}", row.fix);
            }
        }
        if ready {
            println!("ready — every required capability works on this host");
        } else {
            println!("not ready — apply the fix lines above, then run this again");
        }
    }
    Ok(if ready { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
