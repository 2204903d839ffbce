//! Budgets, memory, stack and cancellation (limits, run-budget and cancel tests).

use std::time::{Duration, Instant};

use folio_script::{CancelToken, ScriptFs};

use super::*;

fn limited(timeout: u64) -> Engine {
    Engine::new(
        ModuleRegistry::with_builtins(),
        ScriptLimits { run_timeout_ms: timeout, memory_mb: 64, ..ScriptLimits::default() },
    )
}

fn timed(e: &Engine, src: &str, opts: RunOptions) -> (RunResult, Duration) {
    let t = tree(&[("/scripts/main.js", src)]);
    let started = Instant::now();
    let r = e.run_blocking(Arc::new(TreeFs::new(t)), &vp("/scripts/main.js"), None, opts);
    (r, started.elapsed())
}

/// The whole message every case stopped by the memory ceiling ends with.
const MEMORY: &str = "ERR: script exceeded the memory limit: 64MB (limits.script_memory_mb) and was stopped. Process data in batches — read, write, release — instead of accumulating it all in memory.";
/// The whole message every case stopped by the clock must end with.
const TIMEOUT: &str = "ERR: script exceeded the wall-clock limit: 300ms (limits.run_timeout_ms). Make it do less per run (process a batch, return, run again), or ask the host to raise limits.run_timeout_ms";

/// `(name, source, expected error substring)` — each must end within budget + 250 ms. The time
/// cases run with a 300 ms budget; the memory and stack cases with a generous one, so that on a
/// loaded machine the memory ceiling, not the clock, is what stops them.
const RUNAWAY: &[(&str, &str, &str)] = &[
    ("tight loop", "export default () => { for (;;) {} }", TIMEOUT),
    ("top-level loop", "for (;;) {} export default () => 1", TIMEOUT),
    ("loop in try", "export default () => { for (;;) { try { for (;;) {} } catch (e) {} } }", TIMEOUT),
    ("microtask spin", "export default async () => { for (;;) await null; }", TIMEOUT),
    (
        "host await spin",
        "import { exists } from 'env:fs'; export default async () => { for (;;) await exists('/x'); }",
        TIMEOUT,
    ),
    ("never settles", "export default () => new Promise(() => {})", TIMEOUT),
    ("catastrophic regex", "export default () => /(a+)+$/.test('a'.repeat(40) + 'b')", TIMEOUT),
    (
        "deep recursion",
        "export default function f() { return f() + 1; }",
        "Maximum call stack size exceeded — a recursion with no base case, or one deeper than the 1024KB stack (limits.stack_kb) allows; make it iterative",
    ),
    (
        "string doubling",
        "export default () => { let s = 'x'; for (;;) s += s; }",
        "ERR: InternalError: string too long",
    ),
    ("string bomb", "export default () => { const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length); }", MEMORY),
    ("array bomb", "export default () => { const a = []; for (;;) a.push({ i: a.length, pad: [1, 2, 3] }); }", MEMORY),
    ("huge buffer", "export default () => new ArrayBuffer(1 << 30)", MEMORY),
];

#[test]
fn runaway_scripts_end_with_named_errors_and_the_next_run_works() {
    let (clock, roomy) = (limited(300), limited(20_000));
    let mut failures = Vec::new();
    for (name, src, expect) in RUNAWAY {
        let time_case = expect.contains("wall-clock");
        let e = if time_case { &clock } else { &roomy };
        let (r, took) = timed(e, src, RunOptions::default());
        let got = outcome(&r);
        let limit = if time_case { Duration::from_millis(550 + 1500) } else { Duration::from_secs(20) };
        if !got.contains(expect) || took > limit {
            failures.push(format!("{name}: {took:?}: {got}"));
        }
        let (next, _) = timed(e, "export default () => 'fine'", RunOptions::default());
        if outcome(&next) != r#""fine""# {
            failures.push(format!("after {name}: {}", outcome(&next)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn time_guards_fire_near_the_budget() {
    let e = limited(300);
    for src in ["export default () => { for (;;) {} }", "export default () => new Promise(() => {})"] {
        let (r, took) = timed(&e, src, RunOptions::default());
        assert!(outcome(&r).contains("wall-clock"), "{}", outcome(&r));
        assert!(took >= Duration::from_millis(290) && took <= Duration::from_millis(550), "{src}: {took:?}");
    }
}

#[test]
fn a_run_budget_below_the_ceiling_names_timeout_ms() {
    let e = limited(10_000);
    let (r, took) = timed(
        &e,
        "export default () => { for (;;) {} }",
        RunOptions { timeout_ms: Some(300), ..RunOptions::default() },
    );
    assert_eq!(
        outcome(&r),
        "ERR: script exceeded the wall-clock limit for this run: 300ms (run_script timeout_ms; this environment allows up to 10000ms). Pass a larger timeout_ms, or make the script do less per run"
    );
    assert!(took < Duration::from_secs(3));
    assert!(matches!(r.outcome, Err(ScriptError::Timeout(_))));
}

#[test]
fn the_ceiling_wins_over_a_larger_request() {
    let e = limited(400);
    let (r, took) = timed(
        &e,
        "export default () => { for (;;) {} }",
        RunOptions { timeout_ms: Some(10_000), ..RunOptions::default() },
    );
    assert!(outcome(&r).contains("wall-clock limit: 400ms (limits.run_timeout_ms)"), "{}", outcome(&r));
    assert!(took < Duration::from_secs(3));
    let (ok, _) = timed(&e, "export default () => 1", RunOptions { timeout_ms: Some(0), ..RunOptions::default() });
    assert_eq!(outcome(&ok), "1");
}

#[test]
fn throw_null_is_not_mistaken_for_out_of_memory() {
    let r = run("export default () => { throw null; }");
    assert!(outcome(&r).contains("Uncaught null"), "{}", outcome(&r));
}

#[test]
fn cancelling_before_the_start_refuses_the_run() {
    let t = tree(&[(
        "/scripts/main.js",
        "import { writeFile } from 'env:fs'; export default async () => { await writeFile('/out/x', 'y'); }",
    )]);
    let cancel = CancelToken::new();
    cancel.cancel();
    let r = engine().run_blocking(
        Arc::new(TreeFs::new(t.clone())),
        &vp("/scripts/main.js"),
        None,
        RunOptions { cancel: Some(cancel), ..RunOptions::default() },
    );
    assert!(outcome(&r).contains("cancelled by the host"), "{}", outcome(&r));
    assert!(!t.exists(&vp("/out/x")).unwrap());
}

/// A file system whose `write` blocks for a long time, standing in for a slow host call.
struct SlowFs(TreeFs);

impl ScriptFs for SlowFs {
    fn read(&self, p: &VPath) -> Result<Vec<u8>, folio_script::FsError> {
        self.0.read(p)
    }
    fn write(&self, p: &VPath, d: &[u8]) -> Result<(), folio_script::FsError> {
        std::thread::sleep(Duration::from_millis(1500));
        self.0.write(p, d)
    }
    fn append(&self, p: &VPath, d: &[u8]) -> Result<(), folio_script::FsError> {
        self.0.append(p, d)
    }
    fn list(&self, p: &VPath) -> Result<Vec<folio_vfs::DirEntry>, folio_script::FsError> {
        self.0.list(p)
    }
    fn glob(&self, p: &str) -> Result<Vec<VPath>, folio_script::FsError> {
        self.0.glob(p)
    }
    fn stat(&self, p: &VPath) -> Result<Option<folio_vfs::Stat>, folio_script::FsError> {
        self.0.stat(p)
    }
    fn mkdir(&self, p: &VPath) -> Result<(), folio_script::FsError> {
        self.0.mkdir(p)
    }
    fn rm(&self, p: &VPath) -> Result<(), folio_script::FsError> {
        self.0.rm(p)
    }
    fn mv(&self, a: &VPath, b: &VPath) -> Result<(), folio_script::FsError> {
        self.0.mv(a, b)
    }
    fn cp(&self, a: &VPath, b: &VPath) -> Result<(), folio_script::FsError> {
        self.0.cp(a, b)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_stops_a_spin_and_a_host_call_promptly() {
    let cases = [
        ("spin", "export default () => { for (;;) {} }"),
        (
            "host call",
            "import { writeFile } from 'env:fs'; export default async () => { await writeFile('/out/a', '1'); await writeFile('/out/b', '2'); }",
        ),
    ];
    for (name, src) in cases {
        let t = tree(&[("/scripts/main.js", src)]);
        let fs: Arc<dyn ScriptFs> = Arc::new(SlowFs(TreeFs::new(t.clone())));
        let cancel = CancelToken::new();
        let e = Arc::new(Engine::new(
            ModuleRegistry::with_builtins(),
            ScriptLimits { run_timeout_ms: 20_000, ..ScriptLimits::default() },
        ));
        let opts = RunOptions { cancel: Some(cancel.clone()), ..RunOptions::default() };
        let task = tokio::spawn(async move { e.run(fs, &vp("/scripts/main.js"), None, opts).await });
        tokio::time::sleep(Duration::from_millis(150)).await;
        let at = Instant::now();
        cancel.cancel();
        let r = task.await.unwrap();
        assert!(at.elapsed() <= Duration::from_millis(200), "{name}: took {:?}", at.elapsed());
        assert_eq!(
            outcome(&r),
            "ERR: the script was cancelled by the host before it finished; none of its later changes were applied",
            "{name}"
        );
        tokio::time::sleep(Duration::from_millis(2000)).await;
        assert!(!t.exists(&vp("/out/b")).unwrap(), "{name}: a later host call was applied");
    }
    assert_eq!(outcome(&run("export default () => 'after'")), r#""after""#);
}
