//! API keys: the OS keychain first, the provider's environment variable where no keychain runs.

/// Where a key came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// The OS keychain.
    Keychain,
    /// An environment variable (named).
    Environment(String),
}

/// Access to provider API keys. Keys are never written to SQLite or to disk by Folio.
#[derive(Debug, Clone)]
pub struct Secrets {
    service: String,
}

impl Default for Secrets {
    fn default() -> Self {
        Secrets { service: "folio".to_owned() }
    }
}

impl Secrets {
    /// Keys stored under another keychain service name (tests use their own).
    pub fn with_service(service: impl Into<String>) -> Secrets {
        Secrets { service: service.into() }
    }

    /// The key for `provider`: from the keychain, else from `env_var`. The second value is a
    /// one-line notice when the keychain could not be used, to show the person once.
    pub fn get(&self, provider: &str, env_var: Option<&str>) -> (Option<(String, KeySource)>, Option<String>) {
        let mut notice = None;
        match keyring::Entry::new(&self.service, provider).and_then(|e| e.get_password()) {
            Ok(key) if !key.is_empty() => return (Some((key, KeySource::Keychain)), None),
            Ok(_) | Err(keyring::Error::NoEntry) => {}
            Err(e) => {
                notice = Some(format!(
                    "note: no OS keychain is available here ({e}); using {} from the environment instead",
                    env_var.unwrap_or("the environment")
                ));
            }
        }
        let from_env = env_var.and_then(|var| {
            std::env::var(var).ok().filter(|v| !v.is_empty()).map(|v| (v, KeySource::Environment(var.to_owned())))
        });
        (from_env, notice)
    }

    /// Saves the key for `provider` in the keychain.
    pub fn set(&self, provider: &str, key: &str) -> Result<(), String> {
        keyring::Entry::new(&self.service, provider).and_then(|e| e.set_password(key)).map_err(|e| {
            format!(
                "cannot save the {provider} key in the OS keychain: {e} — hint: on headless Linux start a Secret Service (gnome-keyring) or set the provider's environment variable instead"
            )
        })
    }
}
