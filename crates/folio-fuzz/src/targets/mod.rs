//! The targets: one table, [`TARGETS`], one row per surface that takes bytes from outside.
//!
//! Each row names what it feeds the bytes to, its dictionary and how it builds its state. A
//! target returns a short *signature* of the outcome (the corpus grows by new ones) and asserts
//! its oracles — properties every answer must have (a parsed path is already normal; an edit
//! changes exactly the matched bytes; every verbs line answers with one JSON object) — so a
//! wrong answer is found as well as a panic.

mod env;
mod files;
mod paths;
mod script;

use std::sync::{Arc, OnceLock};

use folio_env::{EnvOptions, Environment, FileHandler, Limits};
use folio_render::{HostPaths, Renderer};
use folio_script::{Engine, ModuleRegistry, ScriptLimits};

use crate::engine::Target;

/// Every target, in the order a run visits them.
pub static TARGETS: &[Target] = &[
    Target {
        name: "vpath",
        about: "folio_vfs::VPath::parse, then resolve/join/parent/relative_to/rebase on what it accepted",
        dictionary: paths::dictionary,
        setup: paths::setup,
        max_len: 4096,
    },
    Target {
        name: "edit_file",
        about: "folio-env's edit_file verb: file bytes, old_str and new_str separated by NUL bytes",
        dictionary: env::edit_dictionary,
        setup: env::edit_setup,
        max_len: 16 * 1024,
    },
    Target {
        name: "verbs_line",
        about: "folio verbs' line protocol (folio_env::run_jsonl) against an in-memory environment",
        dictionary: env::verbs_dictionary,
        setup: env::verbs_setup,
        max_len: 8 * 1024,
    },
    Target {
        name: "dts",
        about: "folio-script's .d.ts derivation, JSDoc lookup, export listing and import scan of arbitrary JavaScript",
        dictionary: script::dictionary,
        setup: script::setup,
        max_len: 16 * 1024,
    },
    Target {
        name: "describe",
        about: "every file handler of folio_host::HANDLERS describing arbitrary bytes under a chosen extension",
        dictionary: files::describe_dictionary,
        setup: files::describe_setup,
        max_len: 64 * 1024,
    },
    Target {
        name: "kinds",
        about: "folio_kinds::FileKind::detect/from_name/from_magic and folio_render::describe::claim",
        dictionary: files::kinds_dictionary,
        setup: files::kinds_setup,
        max_len: 2048,
    },
    Target {
        name: "office_zip",
        about: "folio-render's ZIP reader (zipdir.rs) through describe_office, with its 8 MB inflate cap",
        dictionary: files::zip_dictionary,
        setup: files::office_setup,
        max_len: 64 * 1024,
    },
    Target {
        name: "unzip",
        about: "env:zip's unzipSync over arbitrary bytes in a script, every entry written into an in-memory tree",
        dictionary: files::zip_dictionary,
        setup: env::unzip_setup,
        max_len: 64 * 1024,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Tokens given as text.
pub(crate) fn tokens(list: &[&str]) -> Vec<Vec<u8>> {
    list.iter().map(|t| t.as_bytes().to_vec()).collect()
}

/// One renderer per process: PDFium is bound once and shared, as in the app. It is bound here,
/// in the targets' setup, so loading the library (seconds on a busy machine) is never counted
/// against the first PDF's time bound; a host without PDFium gets its named error per input.
pub(crate) fn renderer() -> Arc<Renderer> {
    static RENDERER: OnceLock<Arc<Renderer>> = OnceLock::new();
    RENDERER
        .get_or_init(|| {
            let r = Renderer::new(HostPaths::from_host(None));
            let _ = r.pdfium();
            Arc::new(r)
        })
        .clone()
}

/// The host's file handlers (`folio_host::HANDLERS`), built over the shared renderer — except
/// env:media's: it hands each file to an ffprobe process (~0.1 s a start), which would turn the
/// describe target into a benchmark of process starts (5 inputs a second instead of thousands);
/// its own tests give it hostile media, and ffprobe's parsers are fuzzed by FFmpeg upstream.
pub(crate) fn handlers() -> Vec<Arc<dyn FileHandler>> {
    let parts = folio_host::Parts::new(renderer(), Vec::new(), no_motion());
    folio_host::HANDLERS.iter().filter_map(|make| make(&parts)).filter(|h| h.module() != "media").collect()
}

/// The limits fuzzed environments run under: small enough that a script or a file cannot make
/// one input outlast the hang bound (2 s) or fill memory.
pub(crate) fn limits() -> Limits {
    Limits {
        max_file_bytes: 2 << 20,
        max_vfs_bytes: 32 << 20,
        run_timeout_ms: 1000,
        script_memory_mb: 64,
        ..Limits::default()
    }
}

/// An environment over an in-memory folder with what a host gives it: the builtins, every
/// module of `folio_host::MODULES` and every handler of `folio_host::HANDLERS`.
pub(crate) fn environment() -> Result<Environment, String> {
    let parts = folio_host::Parts::new(renderer(), Vec::new(), no_motion());
    let mut registry = ModuleRegistry::with_builtins();
    for row in folio_host::MODULES.iter().filter(|row| folio_host::modules::present(row, &parts)) {
        let module = (row.build)(&parts).map_err(|e| format!("env:{}: {e}", row.name))?;
        registry.register_native(module).map_err(|e| e.to_string())?;
    }
    let limits = limits();
    let engine = Engine::new(
        registry,
        ScriptLimits {
            run_timeout_ms: limits.run_timeout_ms,
            memory_mb: limits.script_memory_mb,
            ..Default::default()
        },
    );
    let opts = EnvOptions {
        limits,
        engine: Some(Arc::new(engine)),
        handlers: handlers(),
        presenter: Some(Arc::new(folio_env::KeepPresented)),
        asker: Some(Arc::new(folio_env::Answers::new(vec!["yes".into(); 4]))),
        ..EnvOptions::default()
    };
    Environment::new(Arc::new(folio_vfs::MemTree::new()), None, opts).map_err(|e| e.to_string())
}

/// The shape of the first `words` words of `message`: plain words kept, any word holding a
/// path, a number, a quote or other input-derived text replaced by `_`. An outcome's signature
/// must not change with every name an input makes up, or the corpus fills with copies.
pub(crate) fn gist(message: &str, words: usize) -> String {
    message
        .split_whitespace()
        .take(words)
        .map(|w| {
            let w = w.trim_end_matches([',', '.', ':', ';']);
            if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_') { w } else { "_" }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A size bucket (0, 1, 2–3, 4–7, …) for signatures.
pub(crate) fn bucket(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// env:motion without a browser: a fuzzed script that calls render() is refused at once instead
/// of launching Chromium thousands of times.
fn no_motion() -> Arc<folio_motion::modules::MotionHost> {
    Arc::new(folio_motion::modules::MotionHost::absent())
}
