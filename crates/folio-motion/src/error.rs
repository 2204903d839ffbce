//! What can go wrong in a render, one variant per cause; each message says what happened, where,
//! and the fix.

use std::path::PathBuf;

/// A render or still that did not produce its output.
#[derive(Debug, thiserror::Error)]
pub enum MotionError {
    /// An argument is wrong (a relative path, a negative frame, an odd option). The caller
    /// fixes the call; nothing was launched.
    #[error("{0}")]
    Invalid(String),
    /// The scene file is not in the tree. Nothing was launched.
    #[error(
        "no such scene: {0} — hint: write the scene file first (a module that default-exports a React component), or check the path with ls"
    )]
    NoScene(String),
    /// A source in the scene's graph cannot be used (syntax error, missing sibling, a package
    /// Folio does not provide). Found before the browser is asked; the author fixes the file.
    #[error("{0}")]
    Source(String),
    /// The render would need more frames than the ceiling allows. The caller renders fewer.
    #[error(
        "{frames} frames exceeds the {max}-frame limit ({secs}s at {fps}fps) — each frame is a full browser screenshot; render fewer frames (a shorter durationSeconds or a lower fps)"
    )]
    TooManyFrames {
        /// Frames asked for.
        frames: u64,
        /// The ceiling.
        max: u64,
        /// Their length in seconds.
        secs: String,
        /// Frames per second.
        fps: u32,
    },
    /// No Chromium-family browser on this host. The person installs one (the message names the
    /// command); `capabilities()` and the doctor said so before.
    #[error(
        "env:motion needs a Chromium-family browser and none was found — hint: {0}, or set FOLIO_CHROMIUM_PATH; `folio doctor` shows what is missing"
    )]
    NoBrowser(&'static str),
    /// The browser would not start or connect. Retried once by the pool.
    #[error("the browser {path} did not start: {reason} — hint: check that it runs (`{path} --headless --version`), or point FOLIO_CHROMIUM_PATH at another Chromium", path = path.display())]
    Launch {
        /// The executable.
        path: PathBuf,
        /// What happened.
        reason: String,
    },
    /// The browser failed mid-render (crashed, hung, refused a command). The pool discards it;
    /// running the script again launches a fresh one.
    #[error(
        "the browser failed during the render: {0} — hint: run the script again (a fresh browser is started); if it repeats, `folio doctor --render-test` checks this host"
    )]
    Browser(String),
    /// The scene threw while loading or mounting. The author fixes the scene.
    #[error(
        "the scene threw while rendering, so it never mounted.\n{0}\nThis is the scene's own error, not a renderer failure — fix the scene and render a still again."
    )]
    SceneThrew(String),
    /// The scene loaded but never mounted within the wait.
    #[error(
        "the scene never mounted within {ms}ms{detail} — hint: default-export a React component (export default function Scene() {{ … }}) and render a still to check it"
    )]
    NeverMounted {
        /// The wait.
        ms: u64,
        /// Page errors seen, if any.
        detail: String,
    },
    /// Every frame was identical and the page raised errors: the video would be a still image
    /// of a broken scene.
    #[error("every frame is identical and the page raised errors, so the scene is broken rather than static:\n{0}")]
    BrokenStatic(String),
    /// ffmpeg could not encode the frames (see env:media's message).
    #[error("encoding failed: {0}")]
    Encode(String),
    /// The render does not fit the run's budget, or ran out of it (folio-budget's refusal names
    /// the option to change).
    #[error("{0}")]
    Budget(#[from] folio_budget::BudgetError),
    /// The run was cancelled; the render stopped within a frame and wrote nothing.
    #[error("the render was cancelled")]
    Cancelled,
    /// Writing the output into the tree failed.
    #[error("{0}")]
    Output(String),
}
