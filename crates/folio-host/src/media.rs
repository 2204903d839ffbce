//! folio-media wired to the host: its discovery looks where folio-render's [`HostPaths`] says
//! (platform, environment, whether system places count), so a test that hides or plants tools
//! through the host builder's paths hides or plants ffmpeg, ffprobe and espeak-ng too; and its
//! doctor rows follow folio-render's, with versions from the host's cache.

use std::ffi::OsString;
use std::path::Path;

use folio_media::discovery::Search;
use folio_media::{MediaHost, Platform};
use folio_render::doctor::Probe;
use folio_render::{Capability, HostPaths};

/// folio-media's (and folio-motion's) name for the platform `host` describes.
pub(crate) fn platform(host: &HostPaths) -> Platform {
    match host.platform {
        folio_render::Platform::Linux => Platform::Linux,
        folio_render::Platform::MacOs => Platform::MacOs,
        folio_render::Platform::Windows => Platform::Windows,
    }
}

/// Runs `f` with a [`Search`] over `host`'s view of the machine.
pub fn with_search<T>(host: &HostPaths, f: impl FnOnce(&Search<'_>) -> T) -> T {
    let env = |k: &str| host.env.get(k).map(OsString::from);
    let exists = |p: &Path| p.is_file();
    let search = Search { platform: platform(host), env: &env, system: host.system, exists: &exists };
    f(&search)
}

/// The media tools `host` sees.
pub fn media_host(host: &HostPaths) -> MediaHost {
    with_search(host, MediaHost::discover)
}

/// The doctor's rows followed by folio-media's `ffmpeg`, `ffprobe` and `espeak-ng` rows,
/// versions asked through `probe`.
pub fn with_media_rows(mut rows: Vec<Capability>, host: &HostPaths, probe: &dyn Probe) -> Vec<Capability> {
    let version = |p: &Path, arg: &str| probe.version(p, arg);
    let media: Vec<Capability> = with_search(host, |s| folio_media::doctor::rows(s, &version))
        .into_iter()
        .map(|r| Capability { name: r.name, ok: r.ok, required: r.required, detail: r.detail, fix: r.fix })
        .collect();
    rows.extend(media);
    rows
}

/// `rows` as folio-media's doctor rows, for the module's "On this host" section.
pub fn media_rows(rows: &[Capability]) -> Vec<folio_media::doctor::Row> {
    folio_render::doctor::rows_for("media", rows)
        .into_iter()
        .map(|c| folio_media::doctor::Row {
            name: c.name,
            ok: c.ok,
            required: c.required,
            detail: c.detail,
            fix: c.fix,
        })
        .collect()
}
