//! The budget facility's contract: refusal up front with the fix, progress with an ETA, cancel
//! and the deadline within one unit, rates that persist, and children that never outlive a job.

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use folio_budget::{BudgetError, ChildEnd, ChildLimits, JobKind, JobProgress, Plan, Rates, RunBudget, child};

fn plan(kind: JobKind, total: u64, cost: f64) -> Plan {
    Plan {
        kind,
        job: "env:render.rasterize /in/big.pdf".into(),
        what: format!("rendering {total} pages"),
        total,
        cost,
        smaller: "render fewer pages per call ({pages: [1, 2, 3]})".into(),
    }
}

fn budget_ms(ms: u64, rates: Arc<Rates>) -> RunBudget {
    RunBudget::new(Some(Instant::now() + Duration::from_millis(ms)), rates)
}

#[test]
fn a_job_over_what_is_left_is_refused_up_front_with_both_fixes() {
    let rates = Arc::new(Rates::in_memory());
    // 4 measured jobs at 100 ms a megapixel.
    for _ in 0..4 {
        rates.record(JobKind::PdfPage, 10.0, Duration::from_millis(1000));
    }
    let budget = budget_ms(5_000, rates).with_raise("raise Settings → Script run budget");
    let err = budget.start(plan(JobKind::PdfPage, 300, 300.0)).err().map(|e| e.to_string());
    let expected = "env:render.rasterize /in/big.pdf: rendering 300 pages takes about 30 s on this host (100 ms a megapixel, measured over 4 jobs here), more than the 5 s left of this run's budget — nothing was done — hint: render fewer pages per call ({pages: [1, 2, 3]}), or raise Settings → Script run budget";
    assert_eq!(err.as_deref(), Some(expected));
}

#[test]
fn the_default_refusal_names_the_cli_option() {
    let budget = budget_ms(100, Arc::new(Rates::in_memory()));
    let err = budget.start(plan(JobKind::OfficeConvert, 1, 1.0)).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("the default before any is measured"), "{err}");
    assert!(err.ends_with("or raise the run budget (--run-budget-ms on folio run, verbs and ask)"), "{err}");
}

#[test]
fn a_job_that_fits_starts_and_reports_progress_with_an_eta() {
    let seen: Arc<Mutex<Vec<JobProgress>>> = Arc::default();
    let sink = seen.clone();
    let budget = budget_ms(60_000, Arc::new(Rates::in_memory()))
        .with_progress(Arc::new(move |p: &JobProgress| sink.lock().unwrap().push(p.clone())));
    let mut job = budget.start(plan(JobKind::PdfPage, 3, 3.0)).unwrap();
    for n in 1..=3 {
        std::thread::sleep(Duration::from_millis(120));
        job.step(n).unwrap();
    }
    job.finish();
    let seen = seen.lock().unwrap();
    // The start, then each step (they are 120 ms apart, past the 100 ms throttle).
    let done: Vec<u64> = seen.iter().map(|p| p.done).collect();
    assert_eq!(done, vec![0, 1, 2, 3]);
    let second = &seen[2];
    let eta = second.eta_ms.unwrap();
    assert!((60..=250).contains(&eta), "one page left at ~120 ms a page, ETA {eta} ms");
    assert!(second.text().starts_with("env:render.rasterize /in/big.pdf: 2/3 pages, about "), "{}", second.text());
    assert_eq!(seen[3].text(), "env:render.rasterize /in/big.pdf: 3/3 pages");
    assert_eq!(serde_json::to_value(&seen[3]).unwrap()["unit"], "page");
}

#[test]
fn progress_is_throttled_but_the_last_unit_is_always_sent() {
    let count = Arc::new(Mutex::new(Vec::new()));
    let sink = count.clone();
    let budget = budget_ms(60_000, Arc::new(Rates::in_memory()))
        .with_progress(Arc::new(move |p: &JobProgress| sink.lock().unwrap().push(p.done)));
    let mut job = budget.start(plan(JobKind::PdfPage, 1000, 1.0)).unwrap();
    for n in 1..=1000 {
        job.step(n).unwrap();
    }
    let sent = count.lock().unwrap().clone();
    assert!(sent.len() < 10, "1000 fast steps sent {} reports", sent.len());
    assert_eq!(sent.last(), Some(&1000));
}

#[test]
fn cancel_stops_the_job_at_the_next_unit() {
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    let budget =
        budget_ms(60_000, Arc::new(Rates::in_memory())).with_cancel(Arc::new(move || f.load(Ordering::SeqCst)));
    let mut job = budget.start(plan(JobKind::PdfPage, 10, 10.0)).unwrap();
    job.step(1).unwrap();
    job.step(2).unwrap();
    flag.store(true, Ordering::SeqCst);
    let err = job.step(3).unwrap_err();
    assert_eq!(
        err.to_string(),
        "env:render.rasterize /in/big.pdf: cancelled after 3 of 10 pages; nothing more is written"
    );
    assert!(matches!(budget.start(plan(JobKind::PdfPage, 1, 1.0)), Err(BudgetError::Cancelled { done: 0, .. })));
}

#[test]
fn a_spent_budget_stops_the_job_and_says_how_to_get_more() {
    let budget = budget_ms(50, Arc::new(Rates::in_memory()));
    let mut job = budget.start(plan(JobKind::PdfPage, 10, 0.0)).unwrap();
    std::thread::sleep(Duration::from_millis(80));
    let err = job.step(1).unwrap_err().to_string();
    assert_eq!(
        err,
        "env:render.rasterize /in/big.pdf: the run's budget ran out after 1 of 10 pages — hint: render fewer pages per call ({pages: [1, 2, 3]}), or raise the run budget (--run-budget-ms on folio run, verbs and ask)"
    );
}

#[test]
fn rates_persist_across_starts_and_follow_new_measurements() {
    let dir = tempfile::tempdir().unwrap();
    let rates = Rates::open(dir.path());
    assert_eq!(rates.ms_per_unit(JobKind::OfficeConvert), JobKind::OfficeConvert.prior_ms());
    rates.record(JobKind::OfficeConvert, 1.0, Duration::from_millis(2000));
    let again = Rates::open(dir.path());
    assert_eq!(again.ms_per_unit(JobKind::OfficeConvert), 2000.0);
    again.record(JobKind::OfficeConvert, 1.0, Duration::from_millis(1000));
    let third = Rates::open(dir.path());
    let r = third.measured(JobKind::OfficeConvert).unwrap();
    assert_eq!((r.ms_per_unit, r.samples), (1700.0, 2));
    assert!(third.take_warnings().is_empty());
}

#[test]
fn a_torn_rates_file_falls_back_to_defaults_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("rates.json"), b"{\"version\":1,\"ra").unwrap();
    let rates = Rates::open(dir.path());
    assert_eq!(rates.ms_per_unit(JobKind::PdfPage), JobKind::PdfPage.prior_ms());
    let w = rates.take_warnings();
    assert_eq!(w.len(), 1);
    assert!(w[0].contains("rates.json: the measured rates could not be read"), "{w:?}");
    assert!(w[0].contains("hint: nothing to do, the file is rewritten after the next long job"), "{w:?}");
    rates.record(JobKind::PdfPage, 1.0, Duration::from_millis(3));
    assert!(Rates::open(dir.path()).measured(JobKind::PdfPage).is_some());
}

#[test]
fn child_limits_are_bounded_by_what_is_left_of_the_run() {
    let budget = budget_ms(2_000, Arc::new(Rates::in_memory()));
    let job = budget.start(plan(JobKind::OfficeConvert, 1, 0.0)).unwrap();
    let limits = job.child_limits(Duration::from_secs(120), 1024);
    assert!(limits.deadline.is_some_and(|d| d <= Instant::now() + Duration::from_secs(2)));
    assert_eq!(limits.timeout, Duration::from_secs(120));
    assert_eq!(limits.memory_bytes, Some(1024 * 1024 * 1024));
    let roomy = budget_ms(600_000, Arc::new(Rates::in_memory())).start(plan(JobKind::OfficeConvert, 1, 0.0)).unwrap();
    let limits = roomy.child_limits(Duration::from_secs(120), 0);
    assert!(limits.deadline.is_some_and(|d| d > Instant::now() + Duration::from_secs(500)));
    assert_eq!((limits.timeout, limits.memory_bytes), (Duration::from_secs(120), None));
}

#[cfg(target_os = "linux")]
mod children {
    use super::*;

    /// A leader that forks a long sleeper into its group and prints the sleeper's pid.
    fn forking(leader_sleeps: &str) -> Command {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", &format!("sleep 30 & echo $! > \"$0\"; sleep {leader_sleeps}")]);
        cmd
    }

    fn alive(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
    }

    #[test]
    fn what_a_child_forked_does_not_outlive_its_exit() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let mut cmd = forking("0.2");
        cmd.arg0_path(&pidfile);
        let out = child::run(&mut cmd, &ChildLimits::timeout(Duration::from_secs(10))).unwrap();
        assert!(matches!(out.end, ChildEnd::Exited(s) if s.success()), "{:?}", out.end);
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert!(!alive(pid.trim()), "the forked sleeper {pid} outlived its leader");
    }

    #[test]
    fn a_timeout_kills_the_whole_group_promptly() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let mut cmd = forking("30");
        cmd.arg0_path(&pidfile);
        let t = Instant::now();
        let out = child::run(&mut cmd, &ChildLimits::timeout(Duration::from_millis(300))).unwrap();
        assert_eq!(out.end, ChildEnd::TimedOut);
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert!(!alive(pid.trim()), "the forked sleeper {pid} outlived the timeout");
    }

    #[test]
    fn the_runs_end_kills_the_child_even_within_its_own_timeout() {
        let limits = ChildLimits {
            deadline: Some(Instant::now() + Duration::from_millis(200)),
            ..ChildLimits::timeout(Duration::from_secs(30))
        };
        let out = child::run(Command::new("sleep").arg("30"), &limits).unwrap();
        assert_eq!(out.end, ChildEnd::Deadline);
        assert!(out.took < Duration::from_millis(600), "{:?}", out.took);
    }

    #[test]
    fn cancel_kills_the_child_within_a_poll() {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            f.store(true, Ordering::SeqCst);
        });
        let limits = ChildLimits {
            cancel: Some(Arc::new(move || flag.load(Ordering::SeqCst))),
            ..ChildLimits::timeout(Duration::from_secs(30))
        };
        let out = child::run(Command::new("sleep").arg("30"), &limits).unwrap();
        assert_eq!(out.end, ChildEnd::Cancelled);
        assert!(out.took < Duration::from_millis(600), "{:?}", out.took);
    }

    #[test]
    fn a_group_over_its_memory_cap_is_killed() {
        // Python grows to ~400 MB and then waits; the cap is 150 MB.
        let mut cmd = Command::new("python3");
        cmd.args([
            "-c",
            "import time\nb = bytearray(400 * 1024 * 1024)\nfor i in range(0, len(b), 4096): b[i] = 1\ntime.sleep(30)",
        ]);
        let limits =
            ChildLimits { memory_bytes: Some(150 * 1024 * 1024), ..ChildLimits::timeout(Duration::from_secs(30)) };
        let out = child::run(&mut cmd, &limits).unwrap();
        assert_eq!(out.end, ChildEnd::OverMemory);
        assert!(out.peak_bytes > 150 * 1024 * 1024, "peak {}", out.peak_bytes);
        assert!(out.took < Duration::from_secs(10));
    }
}

trait Arg0Path {
    fn arg0_path(&mut self, p: &std::path::Path) -> &mut Self;
}

impl Arg0Path for Command {
    fn arg0_path(&mut self, p: &std::path::Path) -> &mut Self {
        self.arg(p)
    }
}

/// `Supervised`, the spawn-and-poll handle behind `child::run`: its pipes are the caller's while
/// it runs, a poll within the limits says nothing, and a kill takes the whole group (here a
/// backgrounded `sleep` the shell left behind).
#[cfg(unix)]
#[test]
fn a_supervised_child_is_fed_polled_and_killed_with_its_group() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};

    use folio_budget::child::{ChildEnd, ChildLimits, Supervised, group_alive};

    let mut cmd = Command::new("sh");
    cmd.args(["-c", "read line; echo got:$line; sleep 30 & wait"]).stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = Supervised::spawn(&mut cmd).unwrap();
    let limits = ChildLimits::timeout(std::time::Duration::from_secs(20));
    assert!(child.check(&limits).unwrap().is_none(), "running within its limits");
    writeln!(child.child_mut().stdin.take().unwrap(), "hi").unwrap();
    let mut line = String::new();
    BufReader::new(child.child_mut().stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "got:hi");
    let pid = child.id();
    let start = std::time::Instant::now();
    while group_alive(pid) < 2 && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(group_alive(pid) >= 2, "the shell and its sleep");
    let out = child.kill(ChildEnd::Cancelled);
    assert_eq!(out.end, ChildEnd::Cancelled);
    assert_eq!(group_alive(pid), 0, "nothing of the group is left");
}
