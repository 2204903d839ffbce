//! The payloads of signed updates: the setting that turns the check at start off, a check's
//! outcome (an update there, none, skipped, or failed with a named reason and its fix), and an
//! install's progress. The logic is in [`crate::updates`].

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The update settings, as saved (`app.updates` in the store).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateSettings {
    /// Look for an update each time the app starts (one request to the release's `latest.json`).
    /// Off: no request is made unless the person asks with "Check now".
    #[serde(default = "default_check_at_start")]
    pub check_at_start: bool,
}

fn default_check_at_start() -> bool {
    true
}

impl Default for UpdateSettings {
    fn default() -> UpdateSettings {
        UpdateSettings { check_at_start: default_check_at_start() }
    }
}

/// What the Updates panel shows before any check.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateGetResponse {
    /// The saved settings.
    pub settings: UpdateSettings,
    /// The running app's version.
    pub current_version: String,
    /// Where this build looks for updates; empty for a build from source, which never checks.
    pub endpoints: Vec<String>,
}

/// Saves the update settings.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateSaveParams {
    /// The settings.
    pub settings: UpdateSettings,
}

/// Why a check runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum UpdateTrigger {
    /// The window opened: runs only when `checkAtStart` is on (and says nothing when it is off).
    Start,
    /// The person pressed "Check now": runs whatever the setting says.
    Manual,
}

/// Checks for an update.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateCheckParams {
    /// Why.
    pub trigger: UpdateTrigger,
}

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum UpdateOutcomeName {
    /// A newer release is there; `update.install` downloads, verifies and installs it.
    Available,
    /// This is the newest release.
    UpToDate,
    /// No request was made: the check at start is off, or this build names no update server.
    Skipped,
    /// The check failed; `error`, `message` and `hint` say why and what to do.
    Failed,
}

/// Why an update check or install failed (one name per cause, so the UI can tell them apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum UpdateErrorName {
    /// This build names no update server or no public key (a build from source).
    NotConfigured,
    /// No update server answered (offline, DNS, firewall, timeout).
    Unreachable,
    /// The server answered, but with no release manifest (`latest.json`).
    NoManifest,
    /// The manifest is not one the updater can read.
    BadManifest,
    /// The newest release has no update for this OS, architecture or package kind.
    NoBuildForPlatform,
    /// The insecure (non-https) endpoint was refused.
    Insecure,
    /// The download broke off or was refused.
    Download,
    /// The downloaded bytes do not match the signature made with Folio's key: not installed.
    BadSignature,
    /// The signature is for another version than the manifest announced: not installed.
    VersionMismatch,
    /// The verified update could not be installed.
    Install,
    /// Install was asked for before a check found an update.
    NothingToInstall,
}

/// A check's outcome. A failure is an answer, not an error: at start it is shown quietly.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateCheckResponse {
    /// How it ended.
    pub outcome: UpdateOutcomeName,
    /// The running app's version.
    pub current_version: String,
    /// The newer version, when one is available.
    pub version: Option<String>,
    /// Its release notes, when the manifest has them.
    pub notes: Option<String>,
    /// Its publication date (RFC 3339), when the manifest has one.
    pub date: Option<String>,
    /// What happened, in words (`Folio 0.2.0 is available`, why it was skipped, why it failed).
    pub message: String,
    /// The failure's cause, when it failed.
    pub error: Option<UpdateErrorName>,
    /// The fix, when it failed.
    pub hint: Option<String>,
}

/// Where an install is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum UpdatePhase {
    /// Bytes are arriving.
    Downloading,
    /// All bytes are in and the signature checked; the installer runs.
    Installing,
}

/// An install's progress, streamed while it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateProgressNotification {
    /// Where it is.
    pub phase: UpdatePhase,
    /// Bytes downloaded so far.
    #[ts(type = "number")]
    pub downloaded: u64,
    /// The download's size, when the server said it.
    #[ts(type = "number | null")]
    pub total: Option<u64>,
}

/// An installed update.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateInstallResponse {
    /// The version installed.
    pub version: String,
    /// True when the app must restart to run it (`update.restart`).
    pub restart_needed: bool,
}

/// The TypeScript declarations of this module's payloads.
pub(crate) fn decls() -> Vec<String> {
    vec![
        UpdateSettings::decl(),
        UpdateGetResponse::decl(),
        UpdateSaveParams::decl(),
        UpdateTrigger::decl(),
        UpdateCheckParams::decl(),
        UpdateOutcomeName::decl(),
        UpdateErrorName::decl(),
        UpdateCheckResponse::decl(),
        UpdatePhase::decl(),
        UpdateProgressNotification::decl(),
        UpdateInstallResponse::decl(),
    ]
}
