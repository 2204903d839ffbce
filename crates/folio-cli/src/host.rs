//! What every command that opens a working environment gives it: the rendering capabilities
//! (`env:render`, `env:images` and the document handlers) from [`folio_render::host`], shared
//! with the desktop app so both hosts open the same environment.

use std::path::PathBuf;

use anyhow::Result;
use folio_env::EnvOptions;
use folio_script::NativeModule;

/// Options with the rendering capabilities wired in, plus `extra` modules (e.g. `env:vision`).
pub(crate) fn options(state_dir: Option<PathBuf>, extra: Vec<NativeModule>) -> Result<EnvOptions> {
    Ok(folio_render::host::env_options(state_dir, extra)?)
}
