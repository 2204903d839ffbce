//! Test-only fault points. With the `fault-injection` feature a test can arm one named point so
//! that its n-th hit aborts the process on the spot, with no unwinding and no cleanup: the same
//! state a crash or `SIGKILL` leaves. A test can also mark a host file as held open by another
//! program ([`hold_open`]), which a commit then meets as a Windows sharing violation on any OS.
//! Without the feature every point compiles to nothing.

#[cfg(feature = "fault-injection")]
mod imp {
    use std::collections::HashMap;
    use std::sync::Mutex;

    static ARMED: Mutex<Option<(String, usize)>> = Mutex::new(None);
    static HITS: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

    /// Aborts the process at the `nth` (1-based) hit of `point`.
    pub fn arm(point: &str, nth: usize) {
        if let Ok(mut armed) = ARMED.lock() {
            *armed = Some((point.to_owned(), nth));
        }
    }

    pub(crate) fn hit(point: &str) {
        let count = match HITS.lock() {
            Ok(mut hits) => {
                let map = hits.get_or_insert_with(HashMap::new);
                let c = map.entry(point.to_owned()).or_insert(0);
                *c += 1;
                *c
            }
            Err(_) => return,
        };
        if let Ok(armed) = ARMED.lock()
            && let Some((p, n)) = armed.as_ref()
            && p == point
            && *n == count
        {
            std::process::abort();
        }
    }
}

#[cfg(feature = "fault-injection")]
mod held {
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    static HELD: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

    /// Makes the commit see the host file at `path` as held open by another program (a Windows
    /// sharing violation), on any OS, until [`release`].
    pub fn hold_open(path: &Path) {
        if let Ok(mut held) = HELD.lock() {
            held.push(path.to_path_buf());
        }
    }

    /// Ends [`hold_open`] for `path`.
    pub fn release(path: &Path) {
        if let Ok(mut held) = HELD.lock() {
            held.retain(|p| p != path);
        }
    }

    pub(crate) fn held(path: &Path) -> bool {
        HELD.lock().is_ok_and(|held| held.iter().any(|p| p == path))
    }
}

#[cfg(feature = "fault-injection")]
pub(crate) use held::held;
#[cfg(feature = "fault-injection")]
pub use held::{hold_open, release};
#[cfg(feature = "fault-injection")]
pub use imp::arm;
#[cfg(feature = "fault-injection")]
pub(crate) use imp::hit;

#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub(crate) fn hit(_point: &str) {}

#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub(crate) fn held(_path: &std::path::Path) -> bool {
    false
}

/// The fault points of a commit, in the order a commit passes them.
pub const COMMIT_POINTS: &[&str] = &[
    "commit.journaled",
    "commit.temp-written",
    "commit.prepared",
    "commit.deleted",
    "commit.dir-made",
    "commit.renamed",
    "commit.applied",
    "commit.cleaned",
];
