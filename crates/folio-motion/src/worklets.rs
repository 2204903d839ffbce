//! Reanimated's worklets, lifted the way its Babel plugin lifts them — by that plugin, run with
//! Babel 7 standalone in a page of the same browser (`js/worklets.html`). Without it,
//! `useAnimatedStyle(() => …)` written as the Reanimated docs show it (no dependency array) is a
//! closure nothing ever re-runs: the seed's "frame 1 forever". Results are cached by content,
//! so a re-render after an edit transforms only the changed file.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::error::MotionError;
use crate::pool::Lease;
use crate::site::{SceneFiles, Site};
use crate::tab::{Tab, TabParams};
use crate::transform::Graph;

fn cache() -> &'static Mutex<HashMap<[u8; 32], String>> {
    static CACHE: OnceLock<Mutex<HashMap<[u8; 32], String>>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

struct Nothing;
impl SceneFiles for Nothing {
    fn read(&self, _: &str) -> Option<Vec<u8>> {
        None
    }
}

/// Runs the worklets plugin over every module of `graph` that is not cached yet.
pub async fn transform_graph(lease: &Lease, graph: &mut Graph) -> Result<(), MotionError> {
    let todo: Vec<(String, [u8; 32])> = graph
        .modules
        .iter()
        .map(|(p, m)| (p.clone(), *blake3::hash(m.code.as_bytes()).as_bytes()))
        .filter(|(_, h)| cache().lock().map(|c| !c.contains_key(h)).unwrap_or(true))
        .collect();
    if !todo.is_empty() {
        let own = crate::scripts::own_files(&crate::args::RenderArgs::from_json(&Value::Null, true)?, "/");
        let site = Arc::new(Site::new(Arc::new(Nothing), own, Graph::default()));
        let tab = Tab::open(
            &lease.browser,
            TabParams { width: 64, height: 64, fps: 30, init: &[], site, page: "/__folio/worklets.html" },
        )
        .await?;
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if tab.eval("typeof window.__folioWorklets === 'function'").await? == Value::Bool(true) {
                break;
            }
            if let Some(e) = tab.errors().first() {
                tab.close().await;
                return Err(MotionError::Browser(format!("the worklets transform page failed to load: {e}")));
            }
            if Instant::now() > deadline {
                tab.close().await;
                return Err(MotionError::Browser("the worklets transform page did not load within 20 s".into()));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        for (path, hash) in &todo {
            let Some(code) = graph.modules.get(path).map(|m| m.code.clone()) else { continue };
            let expr = format!("window.__folioWorklets({}, {})", Value::String(code), Value::String(path.clone()));
            let out = match tab.eval(&expr).await {
                Ok(Value::String(s)) => s,
                Ok(other) => {
                    tab.close().await;
                    return Err(MotionError::Source(format!("{path}: the worklets transform returned {other}")));
                }
                Err(e) => {
                    tab.close().await;
                    return Err(MotionError::Source(format!("{path}: the worklets transform failed: {e}")));
                }
            };
            if let Ok(mut c) = cache().lock() {
                c.insert(*hash, out);
            }
        }
        tab.close().await;
    }
    for m in graph.modules.values_mut() {
        let h = *blake3::hash(m.code.as_bytes()).as_bytes();
        if let Some(code) = cache().lock().ok().and_then(|c| c.get(&h).cloned()) {
            // Line maps no longer apply one to one; keep them (Babel keeps lines close with
            // retainLines in the page) rather than name a wrong file.
            m.code = code;
        }
    }
    Ok(())
}
