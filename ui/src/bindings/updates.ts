// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.

export type UpdateSettings = { 
/**
 * Look for an update each time the app starts (one request to the release's `latest.json`).
 * Off: no request is made unless the person asks with "Check now".
 */
checkAtStart: boolean, };

export type UpdateGetResponse = { 
/**
 * The saved settings.
 */
settings: UpdateSettings, 
/**
 * The running app's version.
 */
currentVersion: string, 
/**
 * Where this build looks for updates; empty for a build from source, which never checks.
 */
endpoints: Array<string>, };

export type UpdateSaveParams = { 
/**
 * The settings.
 */
settings: UpdateSettings, };

export type UpdateTrigger = "start" | "manual";

export type UpdateCheckParams = { 
/**
 * Why.
 */
trigger: UpdateTrigger, };

export type UpdateOutcomeName = "available" | "upToDate" | "skipped" | "failed";

export type UpdateErrorName = "notConfigured" | "unreachable" | "noManifest" | "badManifest" | "noBuildForPlatform" | "insecure" | "download" | "badSignature" | "versionMismatch" | "install" | "nothingToInstall";

export type UpdateCheckResponse = { 
/**
 * How it ended.
 */
outcome: UpdateOutcomeName, 
/**
 * The running app's version.
 */
currentVersion: string, 
/**
 * The newer version, when one is available.
 */
version: string | null, 
/**
 * Its release notes, when the manifest has them.
 */
notes: string | null, 
/**
 * Its publication date (RFC 3339), when the manifest has one.
 */
date: string | null, 
/**
 * What happened, in words (`Folio 0.2.0 is available`, why it was skipped, why it failed).
 */
message: string, 
/**
 * The failure's cause, when it failed.
 */
error: UpdateErrorName | null, 
/**
 * The fix, when it failed.
 */
hint: string | null, };

export type UpdatePhase = "downloading" | "installing";

export type UpdateProgressNotification = { 
/**
 * Where it is.
 */
phase: UpdatePhase, 
/**
 * Bytes downloaded so far.
 */
downloaded: number, 
/**
 * The download's size, when the server said it.
 */
total: number | null, };

export type UpdateInstallResponse = { 
/**
 * The version installed.
 */
version: string, 
/**
 * True when the app must restart to run it (`update.restart`).
 */
restartNeeded: boolean, };
