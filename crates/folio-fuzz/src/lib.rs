//! Folio's fuzzer: a small mutational fuzzer that runs on the stable toolchain.
//!
//! Issue 18 asks for fuzzing "with cargo-fuzz (or an equivalent a stable toolchain runs)".
//! cargo-fuzz needs nightly (libFuzzer's `-Zsanitizer=fuzzer` instrumentation), and the machine
//! CI runs on has only stable, so this crate is the equivalent: the same loop libFuzzer runs —
//! take an input from a corpus, mutate it, run the target, keep what was new, save what broke
//! — written in a few hundred lines with nothing but the standard library and the workspace's
//! own crates.
//!
//! What it gives up is coverage feedback: without compiler instrumentation it cannot see which
//! branches an input reached. It keeps inputs by *outcome* instead — each target answers with a
//! short signature (the error variant, the branch of the parse, a size bucket) and an input
//! with an unseen one joins the corpus — and it makes up for the rest with committed seeds that
//! already reach deep (valid ZIPs, PDFs, scripts, verbs lines) and per-target dictionaries of
//! the tokens those formats are made of. Targets also check *oracles*, properties every answer
//! must have, so a wrong answer is a finding as well as a panic.
//!
//! - [`rng`]: SplitMix64 seeding and xorshift64*, so a run is repeated from its printed seed.
//! - [`mutate`]: the byte-level mutators (bit flips, insert/delete/duplicate, splice, interesting
//!   values, dictionary tokens) and `havoc`, which stacks them.
//! - [`engine`]: the run — replay `regressions/<target>/` and `corpus/<target>/`, then mutate
//!   until the time is up; each input under `catch_unwind` on a worker thread, with a 2 s bound
//!   past which it is a hang; findings saved under `crashes/<target>/<hash>` (not committed).
//! - [`targets`]: the table of targets — path parsing, `edit_file`, a `folio verbs` line, the
//!   `.d.ts` derivation, every `describe` handler, the kind table, the Office ZIP reader and
//!   `env:zip` extraction into an in-memory tree.
//!
//! `tests/fuzz.rs` (a test without libtest's harness) runs every target for a bounded time as
//! part of `cargo test --workspace`, and fails on any finding. A crash found is fixed in the
//! crate that owns the code, and its input is committed under `regressions/<target>/`, which
//! every later run replays first.

pub mod engine;
pub mod mutate;
pub mod rng;
pub mod targets;

pub use engine::{Config, Finding, Kind, Report, Run, Target, run_target};
pub use targets::{TARGETS, target};

#[cfg(test)]
mod engine_tests;
