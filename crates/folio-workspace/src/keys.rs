//! The secrets policy, one rule for both shells: where keys live and the order they are looked
//! up in.
//!
//! Keys are kept in the OS keychain, or — where none runs — in the owner-only `keys.json` under
//! the state root; `FOLIO_NO_KEYCHAIN` (set by tests that save a fake key) keeps them in that file
//! only, so a test never overwrites the person's real key. A provider's key is looked up in the
//! keychain, the key file, the provider's own variable (`ANTHROPIC_API_KEY`…), and last
//! `FOLIO_API_KEY`.

use std::path::Path;

use folio_store::Secrets;

/// Where keys live for the state root `root` (see the module's rule).
pub fn secrets_for(root: &Path) -> Secrets {
    if std::env::var_os("FOLIO_NO_KEYCHAIN").is_some_and(|v| !v.is_empty()) {
        Secrets::file_only(&root.join("keys.json"))
    } else {
        Secrets::for_state_root(root)
    }
}

/// A key that was found, and where.
#[derive(Debug, Clone)]
pub struct FoundKey {
    /// The key.
    pub key: String,
    /// Where it was found, for the dialog and the doctor (never the key itself).
    pub source: String,
}

/// `provider`'s key in `secrets` (then its variable, then `FOLIO_API_KEY`), with the keychain's
/// notice when it could not be used.
pub fn key(secrets: &Secrets, provider: &str) -> (Option<FoundKey>, Option<String>) {
    let var = folio_agent::preset(provider).and_then(|p| p.key_env);
    let (found, notice) = secrets.get(provider, var);
    let found = found.map(|(key, source)| FoundKey { key, source: source.to_string() }).or_else(|| {
        std::env::var("FOLIO_API_KEY")
            .ok()
            .map(|k| k.trim().to_owned())
            .filter(|k| !k.is_empty())
            .map(|key| FoundKey { key, source: "the environment variable FOLIO_API_KEY".to_owned() })
    });
    (found, notice)
}
