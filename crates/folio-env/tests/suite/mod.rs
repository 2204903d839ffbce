//! Shared helpers: a fresh environment over an in-memory folder, and a table-driven `check`.

mod compat;
mod gateway;
mod history;
mod jsonl;
mod large;
mod orientation;
mod overlay;
mod paging;
mod person;
mod pipeline;
mod runs;
mod said_once;
mod size;
mod state;
mod table;
mod text;
mod verbs;
mod view;

use std::sync::Arc;

use folio_env::{EnvOptions, Environment, Status};
use folio_vfs::{MemTree, Tree, VPath};
use serde_json::Value;

/// What a case expects: success or error, with substrings the message must contain.
pub enum Expect {
    Ok(&'static [&'static str]),
    Err(&'static [&'static str]),
}

pub fn env() -> Environment {
    env_with(EnvOptions::default())
}

pub fn env_with(opts: EnvOptions) -> Environment {
    Environment::new(Arc::new(MemTree::new()), None, opts).unwrap()
}

pub fn p(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

pub fn read(env: &Environment, path: &str) -> Option<String> {
    env.tree().read(&p(path)).ok().map(|b| String::from_utf8_lossy(&b).into_owned())
}

pub fn put(env: &Environment, path: &str, text: &str) {
    env.tree().write(&p(path), text.as_bytes()).unwrap();
}

/// Calls `verb` and asserts it succeeded; returns the message.
pub fn ok(env: &Environment, verb: &str, args: Value) -> String {
    let r = env.call(verb, args.clone());
    assert_eq!(r.status, Status::Success, "{verb} {args} failed: {}", r.message);
    r.message
}

/// Calls `verb` and asserts it failed; returns the message.
pub fn err(env: &Environment, verb: &str, args: Value) -> String {
    let r = env.call(verb, args.clone());
    assert_eq!(r.status, Status::Error, "{verb} {args} unexpectedly succeeded: {}", r.message);
    r.message
}

/// Runs each `(verb, args, expect)` in order against `env`.
pub fn check(env: &Environment, cases: &[(&str, Value, Expect)]) {
    for (verb, args, expect) in cases {
        let (msg, wanted) = match expect {
            Expect::Ok(w) => (ok(env, verb, args.clone()), *w),
            Expect::Err(w) => (err(env, verb, args.clone()), *w),
        };
        for w in wanted {
            assert!(msg.contains(w), "{verb} {args}: expected {w:?} in:\n{msg}");
        }
    }
}
