//! `folio`: the command-line shell over Folio's library crates. Each subcommand parses its
//! arguments, calls one library function, and prints the result for a person or, with `--json`,
//! for a program. Nothing here decides behaviour: the desktop app calls the same functions.

mod bench;
mod changes;
mod verbs;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Folio keeps an agent's edits to a folder pending until you review and commit them.
///
/// Pending edits live in a per-folder state directory (by default in your app-data directory), so
/// the desktop app and this command see the same pending work.
#[derive(Debug, Parser)]
#[command(name = "folio", version, about, long_about)]
struct Cli {
    /// Where Folio keeps per-folder state (pending edits, history). Default: $FOLIO_STATE_DIR, else
    /// the OS app-data directory (~/.local/share/folio on Linux).
    #[arg(long, global = true, value_name = "DIR")]
    state_dir: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the pending changes of FOLDER: added, modified, deleted and renamed paths, with
    /// conflicts where the folder changed outside Folio.
    Status {
        /// The folder.
        folder: PathBuf,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Write pending changes to FOLDER: all of them, or those at or below each PATH (VFS paths
    /// such as /out/report.pdf). Conflicting changes are skipped unless named with --overwrite.
    /// Exits 3 when conflicts were left pending.
    Commit {
        /// The folder.
        folder: PathBuf,
        /// Only these paths (and what is below them).
        paths: Vec<String>,
        /// Write these paths even though they changed outside Folio.
        #[arg(long, value_name = "PATH", num_args = 1..)]
        overwrite: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Throw pending changes away, all of them or those at or below each PATH. The folder is not
    /// touched.
    Discard {
        /// The folder.
        folder: PathBuf,
        /// Only these paths (and what is below them).
        paths: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Drive the working environment over FOLDER: read JSON lines `{"verb": NAME, "args": {…}}`
    /// from stdin and print one JSON line per call `{"verb", "status", "message", "data"}`.
    /// `present` is wired and also prints `{"event": "presented", …}`; `ask_user` is wired only
    /// with --answers. Edits stay pending exactly as in the app: review them with `folio status`.
    Verbs {
        /// The folder.
        folder: PathBuf,
        /// A path the agent may read but never change (repeatable).
        #[arg(long = "read-only", value_name = "PATH")]
        read_only: Vec<String>,
        /// Answers for ask_user, in order: a JSON list of strings (or one answer per line).
        #[arg(long, value_name = "FILE")]
        answers: Option<PathBuf>,
    },
    /// Measure the overlay on this machine: commit of many changed files, and pending() over a
    /// large folder. Prints figures; works in a temporary directory.
    Bench {
        /// Files in the benchmark folder.
        #[arg(long, default_value_t = 10_000)]
        files: usize,
        /// Files changed and committed.
        #[arg(long, default_value_t = 1_000)]
        changed: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Status { folder, json } => changes::status(cli.state_dir, &folder, json),
        Command::Commit { folder, paths, overwrite, json } => {
            changes::commit(cli.state_dir, &folder, &paths, &overwrite, json)
        }
        Command::Discard { folder, paths, json } => changes::discard(cli.state_dir, &folder, &paths, json),
        Command::Verbs { folder, read_only, answers } => verbs::run(cli.state_dir, &folder, read_only, answers),
        Command::Bench { files, changed } => bench::run(files, changed),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("folio: {err:#}");
            ExitCode::FAILURE
        }
    }
}
