//! The review panel's visual diffs: a pending change compared by folio-diff according to its
//! shape — pages, an image, a video, an archive (here) and cells ([`super::cells`]).
//!
//! Both sides are read as the text diff reads them ([`super::diff`]): the old one is the
//! folder's version on disk ([`super::disk`], through the overlay's containment check; a
//! rename's source for a rename), the new one what a commit would write (through the session's
//! environment). A side larger than the shape's read limit is refused with the sizes, never read.
//!
//! Pages are lazy: [`VisualDiffs::pages`] opens both sides once (LibreOffice converts a deck or
//! a document to PDF once per side) and answers the alignment; [`VisualDiffs::page`] renders and
//! compares one pair. The opened [`PageDiff`] is kept by path and by the two sides' content
//! hashes, so a rewrite of the file (or an outside edit of the folder's version) opens afresh.
//!
//! Every picture a diff makes (a page, an overlay, a thumbnail) is written once into the
//! folder's preview cache under `previews/diff/<hash>.png` and named to the UI by that hash; the
//! `folio://` scheme serves it as `?diff=<hash>` ([`png_path`]).
//!
//! **Architecture Invariant:** nothing here writes to the folder or to the overlay: a visual
//! diff reads both versions and writes only into the state directory's preview cache.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use folio_diff::{DiffError, PageDiff, PageStatus, PixelBox};
use folio_vfs::{ChangeKind, Kind, Tree, VPath};

use crate::api::*;
use crate::preview::{Previews, content_hash};
use crate::review::disk::{self, DiskSide};
use crate::session::Session;

/// The largest side read for a page, cell, image or archive diff.
pub const VISUAL_READ_LIMIT: u64 = 64 * 1024 * 1024;

/// The largest side read for a video diff (videos are decoded by ffmpeg from a scratch file).
pub const VIDEO_READ_LIMIT: u64 = 256 * 1024 * 1024;

/// The resolution a page pair is rendered at when the UI does not say.
pub const DEFAULT_DPI: u32 = 80;

/// The highest resolution a page pair may be asked at.
pub const MAX_DPI: u32 = 200;

/// How many opened page diffs are kept (each holds both sides' PDFs).
const KEEP_OPEN: usize = 4;

/// Both versions of one pending change.
#[derive(Debug)]
pub struct Sides {
    /// The change's path.
    pub path: VPath,
    /// The folder's version (`None`: the file is new).
    pub old: Option<Vec<u8>>,
    /// What a commit would write (`None`: the change removes the file).
    pub new: Option<Vec<u8>>,
}

impl Sides {
    /// The content key of both sides together: a change to either opens the diff afresh.
    fn key(&self) -> String {
        let hash = |b: &Option<Vec<u8>>| b.as_deref().map_or_else(|| "none".to_string(), content_hash);
        format!("{}:{}", hash(&self.old), hash(&self.new))
    }
}

fn megabytes(n: u64) -> String {
    format!("{:.1} MB", n as f64 / 1_048_576.0)
}

fn too_large(path: &VPath, side: &str, size: u64, limit: u64) -> CommandError {
    CommandError::with_hint(
        ErrorKind::BadRequest,
        format!("{path}: {side} is {}, more than the {} the visual review reads", megabytes(size), megabytes(limit)),
        "open both versions with their own application to compare them",
    )
}

/// Reads both versions of the pending change at `raw`, each at most `limit` bytes.
pub fn sides(session: &Session, raw: &str, limit: u64) -> Result<Sides, CommandError> {
    let path = VPath::parse(raw)
        .map_err(|e| CommandError::new(ErrorKind::BadRequest, format!("`{raw}` is not a path in the folder: {e}")))?;
    let env = session.environment();
    let overlay =
        env.overlay().ok_or_else(|| CommandError::new(ErrorKind::NotFound, "this folder has no pending changes"))?;
    let changes = overlay.pending().map_err(CommandError::from)?;
    let change = changes.iter().find(|c| c.path == path).ok_or_else(|| {
        CommandError::with_hint(
            ErrorKind::NotFound,
            format!("{path} has no pending change (it was committed or discarded meanwhile)"),
            "reopen the review panel",
        )
    })?;
    let before_path = match &change.kind {
        ChangeKind::Renamed { from } => from.clone(),
        _ => path.clone(),
    };
    let old = match disk::read_capped(overlay, &before_path, limit).map_err(CommandError::from)? {
        DiskSide::File { bytes: Some(bytes), .. } => Some(bytes),
        DiskSide::File { size, bytes: None } => return Err(too_large(&path, "the folder's version", size, limit)),
        DiskSide::Absent => None,
        DiskSide::Dir => {
            return Err(CommandError::new(ErrorKind::BadRequest, format!("{path} is a folder in the folder")));
        }
    };
    let new = if matches!(change.kind, ChangeKind::Deleted) {
        None
    } else {
        match env.tree().stat(&path).map_err(CommandError::from)? {
            Some(s) if s.kind == Kind::Dir => {
                return Err(CommandError::new(
                    ErrorKind::BadRequest,
                    format!("{path} is a folder: nothing to compare"),
                ));
            }
            Some(s) if s.size > limit => return Err(too_large(&path, "the pending version", s.size, limit)),
            Some(_) => Some(env.tree().read(&path).map_err(CommandError::from)?),
            None => None,
        }
    };
    Ok(Sides { path, old, new })
}

/// What a folio-diff error is to the UI: its kind, its message and its hint.
pub fn diff_error(e: DiffError) -> CommandError {
    let kind = match &e {
        DiffError::NothingToCompare { .. } | DiffError::NoSuchPair { .. } => ErrorKind::BadRequest,
        _ => ErrorKind::Failed,
    };
    CommandError::new(kind, e.to_string())
}

/// Where a picture a diff made is kept, by its key (its content hash); `None` for a key that is
/// not one (the scheme answers 404). Only hex digits pass, so a key never climbs out.
pub fn png_path(previews: &Previews, session: &Session, key: &str) -> Option<PathBuf> {
    if key.is_empty() || key.len() > 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let dir = previews.cache_dir(session, "diff").ok()?;
    Some(dir.join(format!("{key}.png")))
}

/// Keeps `png` in the preview cache and returns its key.
fn keep(previews: &Previews, session: &Session, png: &[u8]) -> Result<String, CommandError> {
    let key = content_hash(png);
    let dir = previews.cache_dir(session, "diff").map_err(CommandError::from)?;
    let file = dir.join(format!("{key}.png"));
    if !file.exists() {
        // Written whole under a scratch name, then renamed: a reader never sees half a PNG.
        let scratch = dir.join(format!("{key}.{}.part", std::process::id()));
        std::fs::write(&scratch, png)
            .and_then(|()| std::fs::rename(&scratch, &file))
            .map_err(|e| CommandError::new(
                ErrorKind::Failed,
                format!("the diff picture could not be kept in {}: {e} — hint: check that the disk has free space and the state directory is writable", dir.display()),
            ))?;
    }
    Ok(key)
}

fn keep_opt(previews: &Previews, session: &Session, png: Option<&[u8]>) -> Result<Option<String>, CommandError> {
    png.map(|p| keep(previews, session, p)).transpose()
}

fn ms_since(start: Instant) -> u32 {
    start.elapsed().as_millis().min(u32::MAX as u128) as u32
}

fn ms(n: u64) -> u32 {
    n.min(u32::MAX as u64) as u32
}

fn fraction(b: &PixelBox, width: u32, height: u32) -> DiffBox {
    let (w, h) = (width.max(1) as f32, height.max(1) as f32);
    DiffBox { x: b.x as f32 / w, y: b.y as f32 / h, w: b.width as f32 / w, h: b.height as f32 / h }
}

fn page_state(s: PageStatus) -> PageState {
    match s {
        PageStatus::Added => PageState::Added,
        PageStatus::Removed => PageState::Removed,
        PageStatus::Unchanged => PageState::Unchanged,
        PageStatus::Changed => PageState::Changed,
        PageStatus::Unknown => PageState::Unknown,
    }
}

fn notes(notes: Vec<String>) -> Option<String> {
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// One opened page diff, by the folder it belongs to, its path and both sides' content.
struct Opened {
    folder: PathBuf,
    path: String,
    key: String,
    diff: Arc<PageDiff>,
}

/// The app-wide state of the visual diffs: the page diffs opened lately (managed by Tauri).
#[derive(Default)]
pub struct VisualDiffs {
    /// Newest last; at most [`KEEP_OPEN`].
    opened: Mutex<Vec<Opened>>,
    /// One opening at a time, so the panel's page requests arriving together convert once.
    opening: Mutex<()>,
    /// This host's measured rates (`<state root>/rates.json`, as the scripts' budgets keep
    /// them): the conversions' ETA, taught by every conversion.
    rates: std::sync::OnceLock<Arc<folio_budget::Rates>>,
}

impl VisualDiffs {
    fn opened(&self) -> std::sync::MutexGuard<'_, Vec<Opened>> {
        self.opened.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn find(&self, folder: &std::path::Path, path: &str, key: &str) -> Option<Arc<PageDiff>> {
        self.opened().iter().find(|o| o.folder == folder && o.path == path && o.key == key).map(|o| o.diff.clone())
    }

    /// The page diff of the change at `raw` as it is now: the one kept, or opened afresh.
    /// The budget a page diff's conversions run under: no deadline (LibreOffice's own timeout
    /// bounds each), this host's rates, and `progress` when the caller streams it.
    fn budget(&self, previews: &Previews, progress: Option<folio_budget::ProgressFn>) -> folio_budget::RunBudget {
        let rates = self.rates.get_or_init(|| {
            Arc::new(
                previews
                    .renderer
                    .host
                    .state_dir
                    .as_deref()
                    .map_or_else(folio_budget::Rates::in_memory, folio_budget::Rates::open),
            )
        });
        let budget = folio_budget::RunBudget::new(None, rates.clone());
        match progress {
            Some(progress) => budget.with_progress(progress),
            None => budget,
        }
    }

    fn page_diff(
        &self,
        previews: &Previews,
        session: &Session,
        raw: &str,
        progress: Option<folio_budget::ProgressFn>,
    ) -> Result<(Arc<PageDiff>, bool), CommandError> {
        let sides = sides(session, raw, VISUAL_READ_LIMIT)?;
        let (folder, path, key) = (session.folder().to_path_buf(), sides.path.to_string(), sides.key());
        if let Some(diff) = self.find(&folder, &path, &key) {
            return Ok((diff, false));
        }
        let _one = self.opening.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(diff) = self.find(&folder, &path, &key) {
            return Ok((diff, false));
        }
        let budget = self.budget(previews, progress);
        let diff = Arc::new(
            PageDiff::open_with(&previews.renderer, sides.old, sides.new, &path, &budget).map_err(diff_error)?,
        );
        let mut opened = self.opened();
        opened.retain(|o| !(o.folder == folder && o.path == path));
        if opened.len() >= KEEP_OPEN {
            opened.remove(0);
        }
        opened.push(Opened { folder, path, key, diff: diff.clone() });
        Ok((diff, true))
    }

    /// The summary of a paged document's diff: page counts, the alignment, and which pairs are
    /// known unchanged without rendering. An Office document's conversions report to `progress`.
    pub fn pages(
        &self,
        previews: &Previews,
        session: &Session,
        raw: &str,
        progress: Option<folio_budget::ProgressFn>,
    ) -> Result<ReviewPagesResponse, CommandError> {
        let start = Instant::now();
        let (diff, fresh) = self.page_diff(previews, session, raw, progress)?;
        let overview = diff.overview();
        let pairs = overview
            .pairs
            .iter()
            .zip(overview.status.iter().copied().chain(std::iter::repeat(PageStatus::Unknown)))
            .enumerate()
            .map(|(i, (p, s))| ReviewPagePair { index: i as u32, old: p.old, new: p.new, state: page_state(s) })
            .collect();
        Ok(ReviewPagesResponse {
            path: diff.name().to_string(),
            old_pages: overview.old_pages,
            new_pages: overview.new_pages,
            pairs,
            // The cost of opening when it was opened now; of answering from the kept one else.
            ms: if fresh { ms(overview.ms).max(ms_since(start)) } else { ms_since(start) },
            note: notes(overview.notes),
        })
    }

    /// One aligned page pair, rendered and compared.
    pub fn page(
        &self,
        previews: &Previews,
        session: &Session,
        params: &ReviewPageParams,
    ) -> Result<ReviewPageResponse, CommandError> {
        let dpi = params.dpi.unwrap_or(DEFAULT_DPI);
        if dpi == 0 || dpi > MAX_DPI {
            return Err(CommandError::with_hint(
                ErrorKind::BadRequest,
                format!("{}: pages are rendered at 1 to {MAX_DPI} dpi, not {dpi}", params.path),
                format!("ask for {DEFAULT_DPI} dpi, or leave the resolution out"),
            ));
        }
        let (diff, _) = self.page_diff(previews, session, &params.path, None)?;
        let compared = diff.compare(params.index as usize, dpi as f32).map_err(diff_error)?;
        let state = match (compared.pair.old, compared.pair.new) {
            (None, _) => PageState::Added,
            (_, None) => PageState::Removed,
            _ if compared.changed => PageState::Changed,
            _ => PageState::Unchanged,
        };
        Ok(ReviewPageResponse {
            index: params.index,
            old_png: keep_opt(previews, session, compared.old_png.as_deref())?,
            new_png: keep_opt(previews, session, compared.new_png.as_deref())?,
            state,
            changed_fraction: compared.changed_fraction,
            boxes: compared.changed_boxes.iter().map(|b| fraction(b, compared.width, compared.height)).collect(),
            ms: ms(compared.ms),
        })
    }
}

/// An image compared with the folder's version.
pub fn image(previews: &Previews, session: &Session, raw: &str) -> Result<ReviewImageResponse, CommandError> {
    let sides = sides(session, raw, VISUAL_READ_LIMIT)?;
    let name = sides.path.to_string();
    let d = folio_diff::image(sides.old.as_deref(), sides.new.as_deref(), &name).map_err(diff_error)?;
    Ok(ReviewImageResponse {
        path: name,
        width: d.width,
        height: d.height,
        old_png: keep_opt(previews, session, d.old_png.as_deref())?,
        new_png: keep_opt(previews, session, d.new_png.as_deref())?,
        diff_png: Some(keep(previews, session, &d.diff_png)?),
        changed_pixels: d.changed_pixels,
        changed_fraction: d.changed_fraction,
        bbox: d.bbox.as_ref().map(|b| fraction(b, d.width, d.height)),
        note: notes(d.notes),
        ms: ms(d.ms),
    })
}

fn video_side(v: folio_diff::VideoInfo) -> VideoSide {
    VideoSide {
        duration_s: v.duration,
        codec: v.codec,
        container: v.container,
        fps: v.fps,
        width: v.width,
        height: v.height,
        frames: v.frames,
    }
}

/// A video compared frame by frame with the folder's version.
pub fn video(previews: &Previews, session: &Session, raw: &str) -> Result<ReviewVideoResponse, CommandError> {
    let ffmpeg = previews.tools.ffmpeg.as_ref().map_err(|why| {
        CommandError::with_hint(
            ErrorKind::Unavailable,
            format!("{raw} cannot be compared frame by frame: {why}"),
            crate::preview::transcode::ffmpeg_fix(),
        )
    })?;
    let sides = sides(session, raw, VIDEO_READ_LIMIT)?;
    let name = sides.path.to_string();
    let d = folio_diff::video(ffmpeg, sides.old.as_deref(), sides.new.as_deref(), &name).map_err(diff_error)?;
    let mut ranges = Vec::with_capacity(d.changed.len());
    for r in &d.changed {
        let thumbs = d.thumbs.iter().find(|t| t.range == *r);
        let pick = |f: fn(&folio_diff::RangeThumbs) -> Option<&Vec<u8>>| thumbs.and_then(f).map(Vec::as_slice);
        ranges.push(FrameRun {
            first: r.first,
            last: r.last,
            old_first: keep_opt(previews, session, pick(|t| t.old_first.as_ref()))?,
            old_last: keep_opt(previews, session, pick(|t| t.old_last.as_ref()))?,
            new_first: keep_opt(previews, session, pick(|t| t.new_first.as_ref()))?,
            new_last: keep_opt(previews, session, pick(|t| t.new_last.as_ref()))?,
        });
    }
    let mut note = d.notes;
    let unthumbed = d.changed.len().saturating_sub(d.thumbs.len());
    if unthumbed > 0 {
        note.push(format!("{unthumbed} later ranges have no thumbnails"));
    }
    Ok(ReviewVideoResponse {
        path: name,
        old: d.old.map(video_side),
        new: d.new.map(video_side),
        ranges,
        ms: ms(d.ms),
        note: notes(note),
    })
}

fn checksum(e: &folio_diff::ArchiveEntry) -> Option<String> {
    if e.directory || e.hash.is_empty() {
        return None;
    }
    Some(format!("crc {:08x}", e.crc32))
}

fn entry(old: Option<&folio_diff::ArchiveEntry>, new: Option<&folio_diff::ArchiveEntry>) -> ArchiveEntryChange {
    let name = new.or(old).map(|e| e.name.clone()).unwrap_or_default();
    ArchiveEntryChange {
        path: name,
        old_size: old.map(|e| e.size),
        new_size: new.map(|e| e.size),
        old_hash: old.and_then(checksum),
        new_hash: new.and_then(checksum),
    }
}

/// An archive's entry list compared with the folder's version.
pub fn archive(session: &Session, raw: &str) -> Result<ReviewArchiveResponse, CommandError> {
    let start = Instant::now();
    let sides = sides(session, raw, VISUAL_READ_LIMIT)?;
    let name = sides.path.to_string();
    let d = folio_diff::archive(sides.old.as_deref(), sides.new.as_deref(), &name).map_err(diff_error)?;
    Ok(ReviewArchiveResponse {
        path: name,
        added: d.added.iter().map(|e| entry(None, Some(e))).collect(),
        removed: d.removed.iter().map(|e| entry(Some(e), None)).collect(),
        changed: d.changed.iter().map(|c| entry(Some(&c.old), Some(&c.new))).collect(),
        same_count: d.same_count.min(u32::MAX as u64) as u32,
        ms: ms(d.ms).max(ms_since(start)),
        note: None,
    })
}
