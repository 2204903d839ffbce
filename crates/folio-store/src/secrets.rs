//! API keys: the OS keychain first; where no keychain runs, a key file only the person can read
//! (when the host gave one), then the provider's environment variable.
//!
//! The key file (`keys.json` under the state root, mode 0600 on Unix) exists because a headless
//! Linux session (CI, Xvfb, a server over SSH) has no Secret Service: without it a key typed into
//! the app's Settings would be lost. Whenever the file is used instead of the keychain, the caller
//! gets a notice saying so, to show the person.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a key came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// The OS keychain.
    Keychain,
    /// Folio's key file, used where no keychain runs (named).
    File(PathBuf),
    /// An environment variable (named).
    Environment(String),
}

impl std::fmt::Display for KeySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeySource::Keychain => write!(f, "the OS keychain"),
            KeySource::File(path) => write!(f, "{} (no OS keychain runs here)", path.display()),
            KeySource::Environment(var) => write!(f, "the environment variable {var}"),
        }
    }
}

/// Access to provider API keys. Keys are never written to SQLite.
#[derive(Debug, Clone)]
pub struct Secrets {
    service: String,
    keychain: bool,
    file: Option<PathBuf>,
}

impl Default for Secrets {
    fn default() -> Self {
        Secrets { service: "folio".to_owned(), keychain: true, file: None }
    }
}

impl Secrets {
    /// Keys stored under another keychain service name (tests use their own).
    pub fn with_service(service: impl Into<String>) -> Secrets {
        Secrets { service: service.into(), ..Secrets::default() }
    }

    /// The keychain, with `keys.json` under `state_root` where no keychain runs. The app and the
    /// `folio` command both use this, so a key saved in one works in the other.
    pub fn for_state_root(state_root: &Path) -> Secrets {
        Secrets { file: Some(state_root.join("keys.json")), ..Secrets::default() }
    }

    /// Only the key file at `path`, never the keychain (tests, and hosts that must not prompt).
    pub fn file_only(path: &Path) -> Secrets {
        Secrets { service: "folio".to_owned(), keychain: false, file: Some(path.to_path_buf()) }
    }

    /// The key for `provider`: from the keychain, else the key file, else `env_var`. The second
    /// value is a one-line notice when the keychain could not be used, to show the person once.
    pub fn get(&self, provider: &str, env_var: Option<&str>) -> (Option<(String, KeySource)>, Option<String>) {
        let mut notice = None;
        if self.keychain {
            match keyring::Entry::new(&self.service, provider).and_then(|e| e.get_password()) {
                Ok(key) if !key.is_empty() => return (Some((key, KeySource::Keychain)), None),
                Ok(_) | Err(keyring::Error::NoEntry) => {}
                Err(e) => {
                    let instead = match &self.file {
                        Some(file) => format!("{} or ", file.display()),
                        None => String::new(),
                    };
                    notice = Some(format!(
                        "note: no OS keychain is available here ({e}); using {instead}{} instead",
                        env_var.unwrap_or("the environment")
                    ));
                }
            }
        }
        if let Some(file) = &self.file
            && let Some(key) = read_file(file).remove(provider).filter(|k| !k.is_empty())
        {
            return (Some((key, KeySource::File(file.clone()))), notice);
        }
        let from_env = env_var.and_then(|var| {
            std::env::var(var).ok().filter(|v| !v.is_empty()).map(|v| (v, KeySource::Environment(var.to_owned())))
        });
        (from_env, notice)
    }

    /// Saves the key for `provider`: in the keychain, or where none runs, in the key file. Returns
    /// where it went. An empty key removes it.
    pub fn set(&self, provider: &str, key: &str) -> Result<KeySource, String> {
        let keychain_error = if self.keychain {
            let entry = keyring::Entry::new(&self.service, provider);
            let saved = entry.and_then(|e| if key.is_empty() { e.delete_credential() } else { e.set_password(key) });
            match saved {
                Ok(()) | Err(keyring::Error::NoEntry) => {
                    // A stale copy in the file would shadow nothing (the keychain is read first),
                    // but it must not outlive the person's intent either.
                    if let Some(file) = &self.file {
                        let mut keys = read_file(file);
                        if keys.remove(provider).is_some() {
                            write_file(file, &keys)?;
                        }
                    }
                    return Ok(KeySource::Keychain);
                }
                Err(e) => e.to_string(),
            }
        } else {
            "the keychain is not used by this host".to_owned()
        };
        let Some(file) = &self.file else {
            return Err(format!(
                "cannot save the {provider} key in the OS keychain: {keychain_error} — hint: on headless Linux start a Secret Service (gnome-keyring) or set the provider's environment variable instead"
            ));
        };
        let mut keys = read_file(file);
        if key.is_empty() {
            keys.remove(provider);
        } else {
            keys.insert(provider.to_owned(), key.to_owned());
        }
        write_file(file, &keys)?;
        Ok(KeySource::File(file.clone()))
    }
}

fn read_file(path: &Path) -> BTreeMap<String, String> {
    std::fs::read(path).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default()
}

/// Writes the key file readable by its owner only, through a temporary file and a rename so a
/// crash never leaves half a file.
fn write_file(path: &Path, keys: &BTreeMap<String, String>) -> Result<(), String> {
    let fail = |e: std::io::Error| {
        format!("cannot save the key file {}: {e} — hint: check that the state directory is writable", path.display())
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    let tmp = path.with_extension("json.tmp");
    let body = serde_json::to_vec_pretty(keys).map_err(|e| fail(std::io::Error::other(e)))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&tmp).map_err(fail)?;
    std::io::Write::write_all(&mut file, &body).map_err(fail)?;
    file.sync_all().map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}
