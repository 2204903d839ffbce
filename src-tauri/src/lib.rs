//! Folio's desktop app: a thin Tauri 2 shell over the library crates. It is the only crate that
//! knows Tauri. [`session`] holds what the commands do (no Tauri in it), [`commands`] exposes it
//! to the web UI, and [`api`] defines the payloads whose TypeScript types the UI imports.

pub mod agent;
pub mod api;
pub mod commands;
pub mod preview;
pub mod provenance;
pub mod review;
pub mod scheme;
pub mod session;
pub mod updates;

use std::path::PathBuf;

use commands::AppState;

/// The folder named on the command line, if any (`folio-desktop [FOLDER]`).
pub fn folder_argument(args: impl IntoIterator<Item = String>) -> Option<PathBuf> {
    args.into_iter().skip(1).find(|a| !a.starts_with('-')).map(PathBuf::from)
}

/// When [`run`] began, for [`trace_first_answer`].
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
static ANSWERED: std::sync::Once = std::sync::Once::new();

/// With `FOLIO_STARTUP_TRACE` set, prints once, to stderr, when the UI's first command (`status_get`,
/// sent as the page loads) was answered: wall-clock milliseconds since the Unix epoch and since
/// [`run`] began. scripts/bench-package.sh times the installed app's cold start with it.
pub fn trace_first_answer(command: &str) {
    if std::env::var_os("FOLIO_STARTUP_TRACE").is_none() {
        return;
    }
    ANSWERED.call_once(|| {
        let epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let since_run = STARTED.get().map(|t| t.elapsed().as_millis()).unwrap_or_default();
        eprintln!(
            "folio-desktop: first command answered ({command}) at epoch_ms={} run_ms={since_run}",
            epoch.as_millis()
        );
    });
}

/// With `FOLIO_STARTUP_TRACE` set, prints to stderr that `stage` of the start is done, in
/// milliseconds since [`run`] began.
pub fn trace_stage(stage: &str) {
    if std::env::var_os("FOLIO_STARTUP_TRACE").is_some() {
        let since_run = STARTED.get().map(|t| t.elapsed().as_millis()).unwrap_or_default();
        eprintln!("folio-desktop: {stage} at run_ms={since_run}");
    }
}

/// The app's commands and state on any runtime: the real one in [`run`], the mock one in tests.
pub fn builder<R: tauri::Runtime>(base: tauri::Builder<R>, state: AppState) -> tauri::Builder<R> {
    let previews = std::sync::Arc::new(preview::Previews::new(state.state_dir.clone()));
    let base = base.manage(previews).register_asynchronous_uri_scheme_protocol(scheme::SCHEME, scheme::handle);
    let base = base.manage(std::sync::Arc::new(review::visual::VisualDiffs::default()));
    base.manage(state).manage(agent::commands::AgentState::default()).invoke_handler(tauri::generate_handler![
        commands::folder_open,
        commands::status_get,
        commands::tree_list,
        commands::file_read,
        commands::scripts_list,
        commands::scripts_run,
        commands::commit_apply,
        commands::discard_apply,
        agent::commands::settings_get,
        agent::commands::settings_save,
        agent::commands::connection_test,
        agent::commands::conversation_list,
        agent::commands::conversation_open,
        agent::commands::conversation_send,
        agent::commands::conversation_stop,
        agent::commands::conversation_answer,
        agent::commands::doctor_get,
        agent::commands::handoff_save,
        agent::privacy::privacy_get,
        agent::privacy::privacy_save,
        agent::capabilities::capabilities_get,
        agent::capabilities::capabilities_save,
        agent::capabilities::capabilities_remove,
        agent::capabilities::capabilities_enable,
        agent::capabilities::capabilities_test,
        preview::commands::preview_info,
        preview::commands::preview_transcode,
        preview::commands::preview_pages,
        preview::commands::preview_table,
        preview::commands::preview_scene,
        preview::commands::preview_email,
        preview::commands::preview_email_attachment,
        preview::commands::preview_ocr,
        provenance::provenance_get,
        provenance::provenance_regenerate,
        review::commands::review_diff,
        review::commands::review_pages,
        review::commands::review_page,
        review::commands::review_cells,
        review::commands::review_image,
        review::commands::review_video,
        review::commands::review_archive,
        review::commands::inbox_drop,
        review::commands::tree_find,
        review::commands::tree_open,
        review::commands::scripts_form,
        review::commands::recent_list,
        updates::update_get,
        updates::update_save,
        updates::update_check,
        updates::update_install,
        updates::update_restart,
    ])
}

/// Runs the app. A folder given on the command line opens at start; if it cannot be opened the
/// window starts empty and says why.
pub fn run() -> Result<(), String> {
    STARTED.get_or_init(std::time::Instant::now);
    let state = AppState::new(std::env::var_os("FOLIO_STATE_DIR").map(PathBuf::from));
    if let Some(folder) = folder_argument(std::env::args()) {
        state.open_in_background(folder);
    }
    let isolated = state.state_dir.is_some();
    let mut app = tauri::Builder::default();
    // One window per state root: a second launch focuses this one and opens its folder here. A
    // launch with its own FOLIO_STATE_DIR (tests, a separate profile) is a separate app.
    if !isolated {
        app = app.plugin(tauri_plugin_single_instance::init(review::commands::second_launch));
    }
    // Signed updates: the plugin needs the config's `plugins.updater`, which mock apps lack.
    app = updates::plugin(app, updates::Updates::new());
    let app = builder(app, state)
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .setup(|_| {
            trace_stage("setup");
            Ok(())
        })
        .on_page_load(|_, payload| {
            let stage = match payload.event() {
                tauri::webview::PageLoadEvent::Started => "page load started",
                tauri::webview::PageLoadEvent::Finished => "page loaded",
            };
            trace_stage(stage);
        })
        .build(tauri::generate_context!())
        .map_err(|e| {
            format!("the window could not start: {e} — on Linux, install WebKitGTK with scripts/install.sh")
        })?;
    trace_stage("built");
    app.run(|_, event| {
        if let tauri::RunEvent::Ready = event {
            trace_stage("event loop ready");
        }
    });
    Ok(())
}
