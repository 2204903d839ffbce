//! Previews of every kind of file: what kind a file is ([`kind`]), what its media is made of
//! ([`media`]), webm previews made by folio-media ([`transcode`]), document pages rendered by
//! folio-render ([`pages`]), tables ([`table`]) and frames of motion scenes rendered by
//! env:motion ([`scene`]), email cards and their attachments ([`email`]) and a scan's text
//! recognised by env:ocr beside its pages ([`scan`]); opening a file with the default application
//! is the review area's `tree_open`. [`Previews`] is the app-wide state they share; `commands` exposes it to the UI and
//! `crate::scheme` serves the bytes.
//!
//! Everything made here is cached by the content's hash in the open folder's state directory
//! (`previews/`), so a file the agent rewrites gets a fresh preview and an unchanged one is never
//! converted twice; [`prune`] keeps that cache under 1 GiB, oldest first, when a folder opens.

pub mod commands;
pub mod email;
pub mod error;
pub mod kind;
pub mod media;
pub mod pages;
pub mod prune;
pub mod scan;
pub mod scene;
pub mod table;
pub mod transcode;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use folio_env::Zone;
use folio_render::{HostPaths, Renderer};
use folio_vfs::{Tree, VPath, VfsError};

use crate::api::{MediaProbe, PreviewInfoResponse, PreviewKind};
use crate::session::Session;
use error::PreviewError;

/// How many bytes of a file decide its kind (here and in the `folio://` scheme's media type).
pub(crate) const HEAD: usize = 8192;

/// The largest file a preview reads into memory (the UI's media cap is the same).
pub const READ_CAP: u64 = 512 * 1024 * 1024;

/// The preview machinery shared by every command and the `folio://` scheme.
pub struct Previews {
    /// PDFium and LibreOffice, found by the same discovery as `folio doctor`.
    pub renderer: Renderer,
    /// ffmpeg and ffprobe, as folio-media found them (it alone runs them).
    pub tools: transcode::Tools,
    /// One transcode at a time (they use every core); a second request for the same content
    /// waits and then finds the cached result.
    transcoding: Mutex<()>,
    /// The newest scene-preview request per path (older ones are cancelled).
    scenes: std::sync::Arc<scene::SceneRequests>,
    /// One LibreOffice conversion at a time (its profile directory is not shareable).
    converting: Mutex<()>,
    /// The content hash of each document whose pages were served, by size and modification time.
    page_hashes: Mutex<std::collections::HashMap<pages::Fingerprint, String>>,
    /// env:ocr's reader, found on first use (`Err`: tesseract is missing, with the install line).
    ocr: std::sync::OnceLock<Result<std::sync::Arc<folio_ocr::Ocr>, String>>,
}

/// Which bytes of a path to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// What the agent sees now (pending changes included).
    Current,
    /// What the folder holds (the committed version).
    Base,
}

/// The hex content hash that names cached previews.
pub fn content_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex()[..32].to_string()
}

impl Previews {
    /// The preview state, with rendering tools discovered as the `folio` command does and a
    /// LibreOffice profile of its own (a profile cannot be shared by two running instances).
    pub fn new(state_dir: Option<PathBuf>) -> Previews {
        let host = HostPaths::from_host(state_dir.clone());
        let tools = transcode::Tools::discover(&host);
        let mut renderer = Renderer::new(host);
        let root = state_dir.or_else(|| folio_vfs::default_state_root().ok()).unwrap_or_else(std::env::temp_dir);
        renderer.office_profile = root.join("previews").join("libreoffice-profile");
        Previews {
            renderer,
            tools,
            transcoding: Mutex::new(()),
            scenes: Default::default(),
            converting: Mutex::new(()),
            page_hashes: Mutex::new(Default::default()),
            ocr: std::sync::OnceLock::new(),
        }
    }

    /// The folder's preview cache, `sub` below it, created if missing.
    pub fn cache_dir(&self, session: &Session, sub: &str) -> Result<PathBuf, PreviewError> {
        let base = match session.environment().overlay() {
            Some(overlay) => overlay.state_dir().join("previews"),
            None => std::env::temp_dir().join("folio-previews"),
        };
        let dir = base.join(sub);
        std::fs::create_dir_all(&dir)
            .map_err(|e| PreviewError::Cache { dir: dir.display().to_string(), why: e.to_string() })?;
        Ok(dir)
    }

    /// Why no webm preview can be made here, with the fix; `None` when ffmpeg is usable.
    pub fn transcode_fix(&self) -> Option<(String, String)> {
        match &self.tools.ffmpeg {
            Ok(_) => None,
            Err(why) => Some((why.clone(), transcode::ffmpeg_fix())),
        }
    }

    /// What a media file is made of: ffprobe's answer (cached by content) when ffprobe is here,
    /// else the container's magic.
    pub fn probe(&self, session: &Session, bytes: &[u8]) -> Result<media::Probe, PreviewError> {
        let by_magic = media::magic(bytes);
        let Some(ffprobe) = self.tools.ffprobe() else { return Ok(by_magic) };
        let dir = self.cache_dir(session, "media")?;
        let hash = content_hash(bytes);
        let cached = dir.join(format!("{hash}.probe.json"));
        if let Some(probe) = std::fs::read(&cached).ok().and_then(|b| serde_json::from_slice(&b).ok()) {
            return Ok(probe);
        }
        let src = self.source_file(&dir, &hash, bytes)?;
        let container = media::container(bytes);
        let probe = media::ffprobe(ffprobe, &src, container);
        let _ = std::fs::remove_file(&src);
        match probe {
            Ok(probe) => {
                if let Ok(json) = serde_json::to_vec(&probe) {
                    let _ = std::fs::write(&cached, json);
                }
                Ok(probe)
            }
            // ffprobe could not read it: the magic answer is what there is (it will say unknown).
            Err(_) => Ok(by_magic),
        }
    }

    /// Writes `bytes` to a scratch file ffmpeg or ffprobe can read.
    fn source_file(&self, dir: &Path, hash: &str, bytes: &[u8]) -> Result<PathBuf, PreviewError> {
        let src = dir.join(format!("{hash}.{}.src", std::process::id()));
        std::fs::write(&src, bytes)
            .map_err(|e| PreviewError::Cache { dir: dir.display().to_string(), why: e.to_string() })?;
        Ok(src)
    }

    /// How to preview `path`.
    pub fn info(&self, session: &Session, raw: &str) -> Result<PreviewInfoResponse, PreviewError> {
        let at = checked_path(raw)?;
        let path = at.to_string();
        // A file too large to read whole gets a card (by name), never a read of gigabytes.
        let stat = session.environment().tree().stat(&at).ok().flatten();
        if let Some(stat) = stat.filter(|s| s.size > READ_CAP) {
            let (_, media_type) = kind::classify(&path, &[]);
            let mb = |n: u64| n / (1024 * 1024);
            return Ok(PreviewInfoResponse {
                path: path.clone(),
                size: stat.size,
                hash: format!("size-{}-mtime-{}", stat.size, stat.mtime_ms),
                media_type,
                kind: PreviewKind::Binary,
                media: None,
                scan: false,
                note: Some(format!(
                    "{path} is {} MB, more than the {} MB a preview reads — open it with its own application",
                    mb(stat.size),
                    mb(READ_CAP)
                )),
            });
        }
        let bytes = read(session, &at, Version::Current)?;
        let (mut kind, media_type) = kind::classify(&path, &bytes[..bytes.len().min(HEAD)]);
        if kind == PreviewKind::Code && scene::is_scene(&path, &bytes) {
            kind = PreviewKind::Scene;
        }
        let mut note = None;
        let media = match kind {
            PreviewKind::Video | PreviewKind::Audio => {
                let probe = self.probe(session, &bytes)?;
                let fix = self.transcode_fix();
                Some(MediaProbe {
                    mime: media::mime(&probe),
                    container: probe.container,
                    video_codec: probe.video,
                    audio_codec: probe.audio,
                    duration_s: probe.duration_s,
                    width: probe.width,
                    height: probe.height,
                    probed_by: probe.probed_by,
                    can_transcode: fix.is_none(),
                    transcode_fix: fix.map(|(why, fix)| format!("{why} — {fix}")),
                })
            }
            PreviewKind::Office => {
                if let Err(tried) =
                    folio_render::office::find_soffice(self.renderer.soffice_path.as_deref(), &self.renderer.host)
                {
                    note = Some(pages::office_missing(&self.renderer, &path, &tried));
                }
                None
            }
            _ => None,
        };
        let scan = kind == PreviewKind::Pdf && scan::is_scan(&self.renderer, &path, &bytes);
        let hash = content_hash(&bytes);
        Ok(PreviewInfoResponse { path, size: bytes.len() as u64, hash, media_type, kind, media, note, scan })
    }
}

/// Parses a path the UI or the scheme sent, refusing a zone the webview is never served
/// (`/.env`, by the zone table).
pub fn checked_path(raw: &str) -> Result<VPath, PreviewError> {
    let at = VPath::parse(raw).map_err(|e| PreviewError::BadPath { raw: raw.to_string(), why: e.to_string() })?;
    if Zone::of(&at).is_some_and(|z| !z.served()) {
        return Err(PreviewError::Private { path: at.to_string() });
    }
    Ok(at)
}

/// True for paths in an environment zone (`/tmp`, `/std`, …), which never reach the folder.
fn in_zone(path: &VPath) -> bool {
    Zone::of(path).is_some()
}

/// Reads a file's bytes: the agent's view, or the folder's committed version.
pub fn read(session: &Session, at: &VPath, version: Version) -> Result<Vec<u8>, PreviewError> {
    let path = at.to_string();
    let result = match version {
        Version::Current => {
            if let Some(stat) = session.environment().tree().stat(at).ok().flatten()
                && stat.size > READ_CAP
            {
                return Err(PreviewError::TooLarge { path, size_mb: stat.size >> 20, cap_mb: READ_CAP >> 20 });
            }
            session.environment().tree().read(at)
        }
        Version::Base => {
            let overlay = session.environment().overlay();
            match overlay {
                Some(overlay) if !in_zone(at) => overlay.read_disk(at),
                _ => return Err(PreviewError::NoBase { path }),
            }
        }
    };
    result.map_err(|e| read_err(e, path, version))
}

/// Reads `len` bytes of the agent's view of a file from `offset` (fewer at its end), without
/// reading the rest: a `folio://` Range request. The caller has checked the size with `stat`, so
/// the cap [`read`] applies to whole files does not arise; errors are [`read`]'s.
pub fn read_range(session: &Session, at: &VPath, offset: u64, len: u64) -> Result<Vec<u8>, PreviewError> {
    let tree = session.environment().tree();
    tree.read_range(at, offset, len).map_err(|e| read_err(e, at.to_string(), Version::Current))
}

/// The preview error for a tree error reading `path`.
fn read_err(e: VfsError, path: String, version: Version) -> PreviewError {
    match e {
        VfsError::NoSuchFile(_) | VfsError::NoSuchEntry(_) if version == Version::Base => PreviewError::NoBase { path },
        VfsError::NoSuchFile(_) | VfsError::NoSuchEntry(_) => PreviewError::NotFound { path },
        VfsError::EscapesFolder { .. } => PreviewError::Outside { path, why: e.to_string() },
        other => PreviewError::Read { path, why: other.to_string() },
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_private_zone_and_bad_paths_are_refused() {
        for (raw, status) in
            [("/.env", 403), ("/.env/settings.json", 403), ("relative.txt", 400), ("/../etc/passwd", 400)]
        {
            assert_eq!(checked_path(raw).unwrap_err().status(), status, "{raw}");
        }
        assert_eq!(checked_path("/.envy").unwrap().to_string(), "/.envy");
        let zoned = |p: &str| in_zone(&VPath::parse(p).unwrap());
        assert!(zoned("/tmp/x.png") && zoned("/std") && !zoned("/tmpfile") && !zoned("/out/a"));
    }
}
