//! Signed updates, through tauri-plugin-updater.
//!
//! A release built by `.github/workflows/release.yml` with the signing key names one endpoint,
//! its repository's `releases/latest/download/latest.json`, and every bundle in it carries a
//! minisign signature made with the private half of the public key in `tauri.conf.json`
//! (`plugins.updater.pubkey`). The app checks that manifest once when the window opens — unless
//! the person turned "Check for updates at start" off, in which case no request is made at all —
//! and the UI says quietly that a newer version is there. Nothing is downloaded until the person
//! asks: [`install`] downloads the bundle, streaming its progress, and the plugin verifies the
//! bytes against the signature *before* anything is written; a bundle whose bytes or signature
//! were changed is refused with [`UpdateError::BadSignature`] and never installed. After an
//! install the UI offers a restart.
//!
//! A build from source names no endpoint (`endpoints` is empty in the committed config; only the
//! release workflow fills it in), so it never checks: a check at start is skipped silently and
//! "Check now" answers [`UpdateError::NotConfigured`] with the way to get a release.
//!
//! Every failure is an [`UpdateError`] whose message says what happened and where, and whose
//! hint says what to do. A check's failure is an answer ([`UpdateCheckResponse`] with
//! `outcome: failed`), not an error, so the window can keep it quiet at start.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use folio_store::Store;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_updater::{Update, UpdaterExt};

use crate::agent::commands::AgentState;
use crate::api::*;
use crate::commands::AppState;

/// The store key the update settings are saved under.
pub const SETTINGS_KEY: &str = "app.updates";
/// How long a check may wait for the manifest.
const CHECK_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the bundle's download may take in all (a slow line, a 15 MB installer).
const DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(20 * 60);
/// A progress notification at most every this many bytes (and one at the end).
const PROGRESS_STEP: u64 = 256 * 1024;

/// Why an update could not be checked, downloaded or installed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} — hint: {}", self.message(), self.hint())]
pub enum UpdateError {
    /// The config names no endpoint or no public key: a build from source. Nobody retries; the
    /// person installs a release.
    NotConfigured {
        /// What is missing (`no update server`).
        missing: &'static str,
    },
    /// No server answered (offline, DNS, a firewall, the timeout). The person retries later.
    Unreachable {
        /// The endpoint(s) asked.
        endpoint: String,
        /// The connection's error.
        why: String,
    },
    /// The server answered without a manifest (a 404 before the first release is published).
    NoManifest {
        /// The endpoint(s) asked.
        endpoint: String,
    },
    /// The manifest is not JSON the updater reads (a broken `latest.json`). The release is fixed.
    BadManifest {
        /// The endpoint(s) asked.
        endpoint: String,
        /// The parser's error.
        why: String,
    },
    /// The newest release has no bundle for this OS, architecture or package kind.
    NoBuildForPlatform {
        /// The platform keys looked for (`linux-x86_64-deb, linux-x86_64`).
        targets: String,
    },
    /// A plain-http endpoint in a release build. The config is fixed.
    Insecure {
        /// The endpoint(s).
        endpoint: String,
    },
    /// The bundle's download failed or was refused. The person retries.
    Download {
        /// The bundle's URL.
        url: String,
        /// What failed.
        why: String,
    },
    /// The downloaded bytes do not verify against the signature with Folio's public key (the
    /// bundle or its signature was changed, or signed with another key). Nothing was installed.
    BadSignature {
        /// The version the manifest announced.
        version: String,
        /// The verifier's error.
        why: String,
    },
    /// The signature is valid but made for another version than the manifest announces (an
    /// older release's bundle passed off as newer). Nothing was installed.
    VersionMismatch {
        /// The version in the signature's trusted comment.
        signed: String,
        /// The version the manifest announced.
        announced: String,
    },
    /// The verified bundle could not be installed (the administrator prompt was refused, the
    /// app's location is not writable).
    Install {
        /// The version.
        version: String,
        /// The installer's error.
        why: String,
    },
    /// Install was asked for with no update found by a check.
    NothingToInstall,
}

impl UpdateError {
    /// The cause's name, for the UI.
    pub fn name(&self) -> UpdateErrorName {
        match self {
            UpdateError::NotConfigured { .. } => UpdateErrorName::NotConfigured,
            UpdateError::Unreachable { .. } => UpdateErrorName::Unreachable,
            UpdateError::NoManifest { .. } => UpdateErrorName::NoManifest,
            UpdateError::BadManifest { .. } => UpdateErrorName::BadManifest,
            UpdateError::NoBuildForPlatform { .. } => UpdateErrorName::NoBuildForPlatform,
            UpdateError::Insecure { .. } => UpdateErrorName::Insecure,
            UpdateError::Download { .. } => UpdateErrorName::Download,
            UpdateError::BadSignature { .. } => UpdateErrorName::BadSignature,
            UpdateError::VersionMismatch { .. } => UpdateErrorName::VersionMismatch,
            UpdateError::Install { .. } => UpdateErrorName::Install,
            UpdateError::NothingToInstall => UpdateErrorName::NothingToInstall,
        }
    }

    /// What happened, and where.
    pub fn message(&self) -> String {
        match self {
            UpdateError::NotConfigured { missing } => {
                format!("this build of Folio has {missing}, so it cannot check for updates")
            }
            UpdateError::Unreachable { endpoint, why } => format!("no update server answered at {endpoint}: {why}"),
            UpdateError::NoManifest { endpoint } => {
                format!("the update server at {endpoint} has no release manifest (latest.json)")
            }
            UpdateError::BadManifest { endpoint, why } => {
                format!("the release manifest at {endpoint} cannot be read: {why}")
            }
            UpdateError::NoBuildForPlatform { targets } => {
                format!("the newest release has no update for this system (looked for {targets})")
            }
            UpdateError::Insecure { endpoint } => {
                format!("the update endpoint {endpoint} does not use https, so it was refused")
            }
            UpdateError::Download { url, why } => format!("the update's download from {url} failed: {why}"),
            UpdateError::BadSignature { version, why } => {
                format!("the downloaded update {version} does not match its signature ({why}), so it was not installed")
            }
            UpdateError::VersionMismatch { signed, announced } => format!(
                "the release manifest announced {announced}, but the downloaded update is signed for {signed}, so it was not installed"
            ),
            UpdateError::Install { version, why } => {
                format!("the verified update {version} could not be installed: {why}")
            }
            UpdateError::NothingToInstall => "no update is waiting to be installed".to_owned(),
        }
    }

    /// What to do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            UpdateError::NotConfigured { .. } => {
                "builds from source do not update themselves; install a release from the project's releases page, which checks on its own"
            }
            UpdateError::Unreachable { .. } => {
                "check the network connection or proxy, then press Check now; to stop checking at start, turn off \u{201c}Check for updates at start\u{201d} under Updates"
            }
            UpdateError::NoManifest { .. } => {
                "no release is published there yet (a draft release is not visible); try again later"
            }
            UpdateError::BadManifest { .. } | UpdateError::NoBuildForPlatform { .. } => {
                "download the installer for your system from the releases page instead"
            }
            UpdateError::Insecure { .. } => {
                "release builds fetch updates over https only; fix plugins.updater.endpoints in tauri.conf.json"
            }
            UpdateError::Download { .. } => "check the network connection and press Install again",
            UpdateError::BadSignature { .. } | UpdateError::VersionMismatch { .. } => {
                "the file was changed on the way or not signed with Folio's release key; do not install it by hand — try again later, and report it if it persists"
            }
            UpdateError::Install { .. } => {
                "allow the administrator prompt when it appears, or install the new version by hand from the releases page"
            }
            UpdateError::NothingToInstall => "press Check now first",
        }
    }

    /// The plugin's error from a check against `endpoint`.
    fn from_check(e: tauri_plugin_updater::Error, endpoint: &str) -> UpdateError {
        use tauri_plugin_updater::Error as E;
        let endpoint = endpoint.to_owned();
        match e {
            E::EmptyEndpoints => UpdateError::NotConfigured { missing: "no update server" },
            E::InsecureTransportProtocol => UpdateError::Insecure { endpoint },
            E::ReleaseNotFound => UpdateError::NoManifest { endpoint },
            E::Reqwest(r) if r.is_decode() => UpdateError::BadManifest { endpoint, why: chain(&r) },
            E::Reqwest(r) if r.is_status() => UpdateError::NoManifest { endpoint },
            E::Reqwest(r) => UpdateError::Unreachable { endpoint, why: chain(&r) },
            E::Serialization(s) => UpdateError::BadManifest { endpoint, why: s.to_string() },
            E::Semver(s) => UpdateError::BadManifest { endpoint, why: format!("its version is not semver: {s}") },
            E::UrlParse(u) => UpdateError::BadManifest { endpoint, why: format!("a URL in it is invalid: {u}") },
            E::TargetNotFound(t) => UpdateError::NoBuildForPlatform { targets: t },
            E::TargetsNotFound(t) => UpdateError::NoBuildForPlatform { targets: t.join(", ") },
            E::UnsupportedArch | E::UnsupportedOs => {
                UpdateError::NoBuildForPlatform { targets: tauri_plugin_updater::target().unwrap_or_default() }
            }
            other => UpdateError::Unreachable { endpoint, why: chain(&other) },
        }
    }

    /// The plugin's error from downloading and verifying `update`.
    fn from_download(e: tauri_plugin_updater::Error, update: &Update) -> UpdateError {
        use tauri_plugin_updater::Error as E;
        let version = update.version.clone();
        match e {
            E::Minisign(_) | E::Base64(_) | E::SignatureUtf8(_) | E::MissingSignedVersion => {
                UpdateError::BadSignature { version, why: chain(&e) }
            }
            E::SignedVersionMismatch { signed, announced } => UpdateError::VersionMismatch { signed, announced },
            other => UpdateError::Download { url: update.download_url.to_string(), why: chain(&other) },
        }
    }
}

impl From<UpdateError> for CommandError {
    fn from(e: UpdateError) -> CommandError {
        let kind = match e {
            UpdateError::NotConfigured { .. } | UpdateError::Unreachable { .. } => ErrorKind::Unavailable,
            UpdateError::NothingToInstall => ErrorKind::BadRequest,
            _ => ErrorKind::Failed,
        };
        CommandError::with_hint(kind, e.message(), e.hint())
    }
}

/// An error with its sources, `outer: inner: innermost` (reqwest's own text stops at the outer).
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let next = s.to_string();
        if !text.contains(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        source = s.source();
    }
    text
}

/// The update side of the app: the update a check found, kept until it is installed.
#[derive(Default)]
pub struct Updates {
    pending: Mutex<Option<Update>>,
    direct: bool,
}

impl Updates {
    /// Checks and downloads through the system's proxy settings, as the app does.
    pub fn new() -> Updates {
        Updates::default()
    }

    /// Checks and downloads without any proxy: for an update server on this machine (tests).
    pub fn direct() -> Updates {
        Updates { pending: Mutex::new(None), direct: true }
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, Option<Update>> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The saved update settings (the defaults when nothing, or something unreadable, was saved).
pub fn settings(store: &Store) -> UpdateSettings {
    store.setting(SETTINGS_KEY).ok().flatten().and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default()
}

/// Saves the update settings.
pub fn save_settings(store: &Store, settings: UpdateSettings) -> Result<(), String> {
    let value = serde_json::to_value(settings).map_err(|e| e.to_string())?;
    store.set_setting(SETTINGS_KEY, &value).map_err(|e| {
        format!("the update settings could not be saved: {e} — hint: check that the state directory is writable")
    })
}

/// The endpoints this build's config names (empty for a build from source).
pub fn endpoints<R: Runtime>(app: &AppHandle<R>) -> Vec<String> {
    app.config()
        .plugins
        .0
        .get("updater")
        .and_then(|u| u.get("endpoints"))
        .and_then(|e| e.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// The Updates panel's content before a check.
pub fn view<R: Runtime>(app: &AppHandle<R>, settings: UpdateSettings) -> UpdateGetResponse {
    UpdateGetResponse { settings, current_version: app.package_info().version.to_string(), endpoints: endpoints(app) }
}

/// Checks for an update, for `trigger`. At start with the setting off, or in a build that names
/// no endpoint, no request is made.
pub async fn check<R: Runtime>(
    app: &AppHandle<R>,
    updates: &Updates,
    settings: UpdateSettings,
    trigger: UpdateTrigger,
) -> UpdateCheckResponse {
    let current = app.package_info().version.to_string();
    let answer = |outcome, message: String| UpdateCheckResponse {
        outcome,
        current_version: current.clone(),
        version: None,
        notes: None,
        date: None,
        message,
        error: None,
        hint: None,
    };
    let failed = |e: UpdateError| UpdateCheckResponse {
        error: Some(e.name()),
        hint: Some(e.hint().to_owned()),
        ..answer(UpdateOutcomeName::Failed, e.message())
    };
    if trigger == UpdateTrigger::Start && !settings.check_at_start {
        return answer(UpdateOutcomeName::Skipped, "checking for updates at start is off; no request was made".into());
    }
    let endpoints = endpoints(app);
    if endpoints.is_empty() {
        let e = UpdateError::NotConfigured { missing: "no update server" };
        return match trigger {
            UpdateTrigger::Start => answer(UpdateOutcomeName::Skipped, e.message()),
            UpdateTrigger::Manual => failed(e),
        };
    }
    let endpoint = endpoints.join(", ");
    let mut builder = app.updater_builder().timeout(CHECK_TIMEOUT);
    if updates.direct {
        builder = builder.no_proxy();
    }
    let found = match builder.build() {
        Ok(updater) => updater.check().await,
        Err(e) => Err(e),
    };
    match found {
        Ok(Some(mut update)) => {
            update.timeout = Some(DOWNLOAD_TIMEOUT);
            // The manifest's own RFC 3339 text (the plugin parsed it, so it is well-formed).
            let date = update.raw_json.get("pub_date").and_then(|d| d.as_str()).map(str::to_owned);
            let response = UpdateCheckResponse {
                version: Some(update.version.clone()),
                notes: update.body.clone().filter(|n| !n.trim().is_empty()),
                date,
                ..answer(
                    UpdateOutcomeName::Available,
                    format!("Folio {} is available (this is {current})", update.version),
                )
            };
            *updates.pending() = Some(update);
            response
        }
        Ok(None) => {
            *updates.pending() = None;
            answer(UpdateOutcomeName::UpToDate, format!("Folio {current} is the newest release"))
        }
        Err(e) => failed(UpdateError::from_check(e, &endpoint)),
    }
}

/// The update [`check`] found, if any (tests hand it to [`download`]).
pub fn found(updates: &Updates) -> Option<Update> {
    updates.pending().clone()
}

/// Downloads `update` and verifies its bytes against its signature with the config's public
/// key, reporting progress; answers the verified bytes. Nothing is written anywhere.
pub async fn download(
    update: &Update,
    progress: &mut (dyn FnMut(UpdateProgressNotification) + Send),
) -> Result<Vec<u8>, UpdateError> {
    let mut downloaded = 0u64;
    let mut reported = 0u64;
    let mut size = None;
    let result = update
        .download(
            |chunk, total| {
                downloaded += chunk as u64;
                size = total;
                if downloaded - reported >= PROGRESS_STEP || Some(downloaded) == total {
                    reported = downloaded;
                    progress(UpdateProgressNotification { phase: UpdatePhase::Downloading, downloaded, total });
                }
            },
            || {},
        )
        .await;
    let bytes = result.map_err(|e| UpdateError::from_download(e, update))?;
    if reported != downloaded {
        progress(UpdateProgressNotification { phase: UpdatePhase::Downloading, downloaded, total: size });
    }
    Ok(bytes)
}

/// Downloads, verifies and installs the update a check found. On Windows the installer takes
/// over and the app exits; elsewhere the app restarts when the person says so.
pub async fn install(
    updates: &Updates,
    progress: &mut (dyn FnMut(UpdateProgressNotification) + Send),
) -> Result<UpdateInstallResponse, UpdateError> {
    let update = found(updates).ok_or(UpdateError::NothingToInstall)?;
    let bytes = download(&update, progress).await?;
    progress(UpdateProgressNotification {
        phase: UpdatePhase::Installing,
        downloaded: bytes.len() as u64,
        total: Some(bytes.len() as u64),
    });
    let version = update.version.clone();
    // The installer may wait for an administrator password: off the async workers.
    let installing = update.clone();
    tauri::async_runtime::spawn_blocking(move || installing.install(bytes))
        .await
        .map_err(|e| UpdateError::Install { version: version.clone(), why: format!("the installer stopped: {e}") })?
        .map_err(|e| UpdateError::Install { version: version.clone(), why: chain(&e) })?;
    *updates.pending() = None;
    Ok(UpdateInstallResponse { version, restart_needed: true })
}

/// Adds the updater plugin and the update state to the app. Only where the config has a
/// `plugins.updater` section (the real app; tests that serve a manifest): the plugin refuses to
/// start without one.
pub fn plugin<R: Runtime>(builder: tauri::Builder<R>, updates: Updates) -> tauri::Builder<R> {
    builder.plugin(tauri_plugin_updater::Builder::new().build()).manage(updates)
}

/// `update.get`: the settings, this version and where it looks for updates.
#[tauri::command]
pub async fn update_get<R: Runtime>(
    handle: AppHandle<R>,
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
) -> Result<UpdateGetResponse, CommandError> {
    let host = agent.host(&app)?;
    Ok(view(&handle, settings(host.store())))
}

/// `update.save`: saves the settings; answers the panel's new content.
#[tauri::command]
pub async fn update_save<R: Runtime>(
    handle: AppHandle<R>,
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    params: UpdateSaveParams,
) -> Result<UpdateGetResponse, CommandError> {
    let host = agent.host(&app)?;
    save_settings(host.store(), params.settings)?;
    Ok(view(&handle, settings(host.store())))
}

/// `update.check`: looks for an update (at start only when the setting is on).
#[tauri::command]
pub async fn update_check<R: Runtime>(
    handle: AppHandle<R>,
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    updates: State<'_, Updates>,
    params: UpdateCheckParams,
) -> Result<UpdateCheckResponse, CommandError> {
    // A build that names no endpoint skips the check at start without opening the store.
    if params.trigger == UpdateTrigger::Start && endpoints(&handle).is_empty() {
        return Ok(check(&handle, &updates, UpdateSettings::default(), params.trigger).await);
    }
    let host = agent.host(&app)?;
    Ok(check(&handle, &updates, settings(host.store()), params.trigger).await)
}

/// `update.install`: downloads, verifies and installs the update found, streaming progress.
#[tauri::command]
pub async fn update_install(
    updates: State<'_, Updates>,
    on_progress: Channel<UpdateProgressNotification>,
) -> Result<UpdateInstallResponse, CommandError> {
    let mut progress = move |n: UpdateProgressNotification| {
        // A window that went away no longer needs the bar; the install goes on.
        let _ = on_progress.send(n);
    };
    Ok(install(&updates, &mut progress).await?)
}

/// `update.restart`: restarts the app into the installed version.
#[tauri::command]
pub fn update_restart<R: Runtime>(handle: AppHandle<R>) {
    handle.restart()
}
