//! What every host that opens a working environment gives it — the `folio` command and the
//! desktop app alike: the `env:render`, `env:images` and `env:zip` modules for scripts, and the handlers that
//! let `describe`, `ls` and `view_image` understand PDFs, Office files and images. PDFium and
//! LibreOffice are found by the same discovery `folio doctor` reports; when one is missing, the
//! module refuses up front with the fix.

use std::path::PathBuf;
use std::sync::Arc;

use folio_env::{EnvOptions, FileHandler};
use folio_script::{Engine, ModuleRegistry, NativeModule, RegistryError, ScriptLimits};

use crate::handler::{ImagesHandler, RenderHandler};
use crate::{HostPaths, ImageLimits, Renderer};

/// Environment options with the rendering capabilities wired in, plus `extra` modules (for
/// example `env:vision`). `state_dir` is where per-folder state lives (`None`: the default).
pub fn env_options(state_dir: Option<PathBuf>, extra: Vec<NativeModule>) -> Result<EnvOptions, RegistryError> {
    let renderer = Arc::new(Renderer::new(HostPaths::from_host(state_dir.clone())));
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(crate::modules::render_module(renderer.clone()))?;
    registry.register_native(crate::modules::images_module(ImageLimits::default()))?;
    // The library route's proof: fflate, vendored and evaluated inside the sandbox.
    // A vendored library that fails to load is a build defect; it is reported, never skipped.
    registry.register_native(folio_script::zip_module().map_err(|e| RegistryError::Invalid(e.to_string()))?)?;
    for module in extra {
        registry.register_native(module)?;
    }
    let handlers: Vec<Arc<dyn FileHandler>> =
        vec![Arc::new(RenderHandler::new(renderer.clone())), Arc::new(ImagesHandler::new(renderer))];
    let defaults = EnvOptions::default();
    let limits = ScriptLimits {
        run_timeout_ms: defaults.limits.run_timeout_ms,
        memory_mb: defaults.limits.script_memory_mb,
        ..ScriptLimits::default()
    };
    Ok(EnvOptions {
        state_root: state_dir,
        engine: Some(Arc::new(Engine::new(registry, limits))),
        handlers,
        ..defaults
    })
}
