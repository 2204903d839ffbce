//! `folio`: the command-line shell over Folio's library crates. Each subcommand parses its
//! arguments, calls one library function, and prints the result for a person or, with `--json`,
//! for a program. Nothing here decides behaviour: the desktop app calls the same functions.

mod ask;
mod bench;
mod changes;
mod doctor;
mod eval;
mod flags;
mod ledger;
mod mcp;
mod progress;
mod provenance;
mod run;
mod settings;
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
        #[command(flatten)]
        flags: flags::Flags,
        /// Answers for ask_user, in order: a JSON list of strings (or one answer per line).
        #[arg(long, value_name = "FILE")]
        answers: Option<PathBuf>,
    },
    /// Ask the agent to do something in FOLDER, headless: one run of the agent loop, streaming its
    /// reply and tool calls. Edits stay pending (review them with `folio status`). Without PROMPT,
    /// `--conversation ID` continues a run that stopped at the turn limit.
    Ask(ask::AskArgs),
    /// Measure whether a model gets an analyst's work done: scenarios over a seeded corpus,
    /// deterministic checks, a spend budget, a report (`folio eval selfcheck` needs no model).
    #[command(subcommand)]
    Eval(eval::EvalCommand),
    /// Print what was sent to the model in a conversation over FOLDER (the latest, unless
    /// --conversation): each request's provider, model, endpoint, body size and SHA-256, and what
    /// it carried — message text, tool results with the files and ranges they came from, images
    /// with their source paths.
    Ledger(ledger::LedgerArgs),
    /// Run SCRIPT (a VFS path such as /scripts/tally.js) in the working environment over FOLDER,
    /// exactly as the agent's run_script would, streaming its console lines to stderr. Prints the
    /// result (or, with --json, the whole run); exits 1 when the script fails. Its edits stay
    /// pending: review them with `folio status`.
    Run {
        /// The folder.
        folder: PathBuf,
        /// The script to run.
        script: String,
        /// The object passed to the script's default export, as JSON.
        #[arg(long, value_name = "JSON")]
        args: Option<String>,
        /// A shorter deadline than the run budget, in milliseconds.
        #[arg(long, value_name = "N")]
        timeout_ms: Option<u64>,
        #[command(flatten)]
        flags: flags::Flags,
        /// Print the run as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Where PATH (a deliverable such as /out/q3.xlsx) in FOLDER came from: the script and its
    /// hash, the files it read, the run, and the conversation turn and model that asked (or that
    /// no model did). STALE names the inputs that changed since; EDITED SINCE says the file is
    /// not what the run wrote. Prints JSON with --json.
    Provenance {
        /// The folder.
        folder: PathBuf,
        /// The file, as a VFS path (/out/q3.xlsx).
        path: String,
        /// Print JSON: {path, hash, size, standing, record, changed_inputs, script}.
        #[arg(long)]
        json: bool,
    },
    /// Re-run the script that made PATH in FOLDER with its recorded arguments on the current
    /// inputs — no model call. The new file is a pending change (review with `folio status`,
    /// then commit). Refuses a script that changed since the record unless --use-current-script.
    Regenerate {
        /// The folder.
        folder: PathBuf,
        /// The deliverable, as a VFS path (/out/q3.xlsx).
        path: String,
        /// Run the script as it is now even though it changed since the record.
        #[arg(long)]
        use_current_script: bool,
        #[command(flatten)]
        flags: flags::Flags,
        /// Print JSON.
        #[arg(long)]
        json: bool,
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
    /// Manage the MCP servers scripts import as env:NAME (the state directory's mcp.json, the
    /// same list as the app's Settings → Capabilities).
    #[command(subcommand)]
    Mcp(mcp::McpCommand),
    /// Show or change the stored settings (the app's Settings): provider, model, base URL,
    /// vision, turn limit, script budget, and a folder's read-only choice. Every subcommand
    /// applies them unless a flag overrides one.
    #[command(subcommand)]
    Settings(settings::SettingsCommand),
    /// Check which capabilities work on this host (PDFium for rendering PDFs, LibreOffice for
    /// Office files, Chromium, ffmpeg, the model provider's key), printing the command that fixes
    /// each one that does not. Exits 1 unless every required capability works.
    Doctor {
        /// Print JSON: {ready, capabilities: [{name, ok, required, detail, fix}]}.
        #[arg(long)]
        json: bool,
        /// Also render a test clip with env:motion (a still and 60 frames to mp4, no model
        /// needed) and report its path and timing; exits 1 when it fails.
        #[arg(long)]
        render_test: bool,
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
        Command::Verbs { folder, flags, answers } => verbs::run(cli.state_dir, &folder, &flags, answers),
        Command::Ask(args) => ask::run(cli.state_dir, args),
        Command::Eval(command) => eval::run(command),
        Command::Ledger(args) => ledger::run(cli.state_dir, args),
        Command::Run { folder, script, args, timeout_ms, flags, json } => {
            run::run(run::RunArgs { state_dir: cli.state_dir, folder, script, args, timeout_ms, flags, json })
        }
        Command::Provenance { folder, path, json } => provenance::show(cli.state_dir, &folder, &path, json),
        Command::Regenerate { folder, path, use_current_script, flags, json } => {
            provenance::regen(cli.state_dir, &folder, &path, use_current_script, &flags, json)
        }
        Command::Bench { files, changed } => bench::run(files, changed),
        Command::Mcp(command) => mcp::run(cli.state_dir, command),
        Command::Settings(command) => settings::run(cli.state_dir, command),
        Command::Doctor { json, render_test } => doctor::run(cli.state_dir, json, render_test),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("folio: {err:#}");
            ExitCode::FAILURE
        }
    }
}
