//! What every command that opens a working environment gives it: the `env:render` and
//! `env:images` modules for scripts, and the handlers that let `describe`, `ls` and `view_image`
//! understand PDFs, Office files and images. PDFium and LibreOffice are found by the same
//! discovery `folio doctor` reports; when one is missing, the module refuses up front with the fix.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use folio_env::{EnvOptions, FileHandler};
use folio_render::handler::{ImagesHandler, RenderHandler};
use folio_render::{HostPaths, ImageLimits, Renderer};
use folio_script::{Engine, ModuleRegistry, NativeModule, ScriptLimits};

/// Options with the rendering capabilities wired in, plus `extra` modules (e.g. `env:vision`).
pub(crate) fn options(state_dir: Option<PathBuf>, extra: Vec<NativeModule>) -> Result<EnvOptions> {
    let renderer = Arc::new(Renderer::new(HostPaths::from_host(state_dir.clone())));
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(folio_render::modules::render_module(renderer.clone()))?;
    registry.register_native(folio_render::modules::images_module(ImageLimits::default()))?;
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
