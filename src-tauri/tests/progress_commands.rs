//! A long job's progress and the script run budget, through the app's commands: a script that
//! renders a many-page PDF streams `{done, total, unit, eta}` to the catalogue's run and to the
//! agent's tool row (never to the model, never into the console transcript), and the Settings'
//! "Script run budget" is validated and stops a script that overruns it, naming the setting.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::sync::{Arc, Mutex};

use folio_agent::{AgentEvent, EnvTools, Tools};
use folio_desktop::api::*;
use folio_desktop::commands::AppState;
use serde_json::json;

#[path = "common/pdf.rs"]
mod pdf;
use pdf::many_pages;

mod mock;
use mock::{App, app, call};

const PAGES: u64 = 24;

const RENDER: &str = r#"import { rasterize } from 'env:render';

/** Renders many.pdf to PNGs. */
export default async function () {
  console.log('rendering');
  const r = await rasterize('/many.pdf', '/tmp/pages', { dpi: 72 });
  console.log('rendered');
  return r.pageCount;
}
"#;

fn open(app: &App, files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("scripts")).unwrap();
    for (name, bytes) in files {
        std::fs::write(folder.path().join(name), bytes).unwrap();
    }
    let path = folder.path().display().to_string();
    call::<FolderOpenResponse>(app, "folder_open", json!({"params": {"path": path}})).unwrap();
    folder
}

fn session(app: &App) -> Arc<folio_desktop::session::Session> {
    tauri::Manager::state::<AppState>(&app.webview).current().unwrap()
}

/// The job lines rise to the total with an ETA while they run, and name the file.
fn check_rising(jobs: &[JobProgressNotice]) {
    assert!(jobs.len() >= 3, "a start, at least one page between and the end: {jobs:?}");
    assert!(jobs.windows(2).all(|w| w[0].done <= w[1].done), "done never goes down: {jobs:?}");
    let last = jobs.last().unwrap();
    assert_eq!((last.done, last.total, last.unit, last.units.as_str()), (PAGES, PAGES, JobUnit::Page, "pages"));
    assert_eq!(last.left, None, "nothing is left once done: {last:?}");
    assert!(jobs.iter().all(|j| j.total == PAGES && j.job.contains("/many.pdf")), "{jobs:?}");
    let between: Vec<&JobProgressNotice> = jobs.iter().filter(|j| j.done > 0 && j.done < PAGES).collect();
    assert!(!between.is_empty(), "progress between the start and the end: {jobs:?}");
    for j in between {
        let left = j.left.as_deref().unwrap_or_default();
        assert!(j.eta_ms.is_some() && left.starts_with("about ") && left.ends_with(" left"), "{j:?}");
    }
}

#[test]
fn a_long_render_streams_job_progress_to_the_catalogue_run_and_the_tool_row_not_the_console() {
    let app = app();
    let pdf = many_pages(PAGES as usize);
    let _folder = open(&app, &[("many.pdf", &pdf), ("scripts/render.js", RENDER.as_bytes())]);
    let session = session(&app);

    // The catalogue's run: job lines apart from the console lines.
    let seen: Arc<Mutex<Vec<ScriptProgressNotification>>> = Arc::default();
    let sink = seen.clone();
    let run = session
        .run_script(
            ScriptsRunParams { path: "/scripts/render.js".into(), args: None },
            Box::new(move |line| sink.lock().unwrap().push(line)),
        )
        .unwrap();
    assert!(run.ok, "{run:?}");
    assert_eq!(run.result_text.as_deref(), Some(PAGES.to_string().as_str()));
    let seen = seen.lock().unwrap().clone();
    let console: Vec<&str> = seen.iter().filter(|l| l.job.is_none()).map(|l| l.text.as_str()).collect();
    assert_eq!(console, ["rendering", "rendered"], "job progress is not console output");
    let jobs: Vec<JobProgressNotice> = seen.iter().filter_map(|l| l.job.clone()).collect();
    check_rising(&jobs);
    let line = seen.iter().find(|l| l.job.as_ref().is_some_and(|j| j.left.is_some())).unwrap();
    assert!(line.text.contains(" pages, about ") && line.text.ends_with(" left"), "{}", line.text);

    // The agent's run_script: the tool row gets the same job progress; the model's answer has
    // the script's console and result, never the job lines.
    let tools = EnvTools::new(session.environment().clone(), session.agent_events().clone());
    tools.drain_events();
    let reply = session.environment().call("run_script", json!({"path": "/scripts/render.js"}));
    assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
    let told = format!("{} {}", reply.message, reply.data);
    assert!(told.contains("rendered"), "{told}");
    assert!(!told.contains(" pages, about ") && !told.contains(&format!("{PAGES}/{PAGES} pages")), "{told}");
    let events = tools.drain_events();
    let jobs: Vec<JobProgressNotice> = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ScriptProgress { job: Some(job), .. } => Some(JobProgressNotice::from(job)),
            _ => None,
        })
        .collect();
    check_rising(&jobs);
    // And the transcript's notification carries it for the tool row.
    let row = serde_json::to_value(ConversationNotification::ToolProgress {
        script: "/scripts/render.js".into(),
        is_error: false,
        text: String::new(),
        job: jobs.last().cloned(),
    })
    .unwrap();
    assert_eq!(row["job"]["done"], PAGES, "{row}");
    assert_eq!(row["job"]["unit"], "page", "{row}");
}

fn settings_with(app: &App, script_budget_ms: u64) -> Result<SettingsGetResponse, String> {
    let view: SettingsGetResponse = call(app, "settings_get", json!({})).unwrap();
    let settings = AgentSettings { script_budget_ms, ..view.settings };
    call(app, "settings_save", json!({"params": {"settings": settings, "apiKey": null}}))
}

#[test]
fn the_script_run_budget_is_validated_and_stops_an_overrunning_script_naming_the_setting() {
    let app = app();
    let view: SettingsGetResponse = call(&app, "settings_get", json!({})).unwrap();
    assert_eq!(view.settings.script_budget_ms, 30_000, "30 s by default");
    // One bound for both shells (folio-workspace's): up to 60 min, as `folio run` always allowed.
    for bad in [0, 999, 60 * 60_000 + 1] {
        let err = settings_with(&app, bad).unwrap_err();
        assert!(err.contains("the script run budget must be between 1 s and 60 min (1000–3600000 ms)"), "{bad}: {err}");
    }
    assert_eq!(settings_with(&app, 60 * 60_000).unwrap().settings.script_budget_ms, 60 * 60_000);
    assert_eq!(settings_with(&app, 1_000).unwrap().settings.script_budget_ms, 1_000);

    // Applied when the folder opens: a script that would run 3 s (or forever) is stopped at 1 s.
    let sleep = "/** Waits 3 s. */\nexport default async function () { const end = Date.now() + 3000; while (Date.now() < end) { await Promise.resolve(); } return 'woke'; }\n";
    let busy = "/** Spins. */\nexport default async function () { for (;;) {} }\n";
    let _folder = open(&app, &[("scripts/sleep.js", sleep.as_bytes()), ("scripts/busy.js", busy.as_bytes())]);
    for script in ["/scripts/sleep.js", "/scripts/busy.js"] {
        let started = std::time::Instant::now();
        let run =
            session(&app).run_script(ScriptsRunParams { path: script.into(), args: None }, Box::new(|_| {})).unwrap();
        let took = started.elapsed();
        assert!(!run.ok, "{script}: {run:?}");
        let error = run.error.unwrap_or_default();
        assert!(error.contains("1000ms") && error.contains("raise Settings → Script run budget"), "{script}: {error}");
        assert!(took < std::time::Duration::from_millis(2_500), "{script}: stopped near 1 s, not at its end: {took:?}");
    }
}
