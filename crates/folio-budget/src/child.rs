//! Child processes under supervision: each one leads its own process group, is polled for its
//! exit, the run's cancel, its deadline and the group's memory, and the whole group is killed
//! when any of them says stop — and again when the leader has exited, so nothing it forked
//! (LibreOffice's `soffice.bin`, an ffmpeg helper) outlives the job, holds a shared profile, or
//! keeps growing after the run returned.

use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use std::sync::Arc;

/// Whether the run was cancelled (by the person, or because it ended).
pub type CancelFn = Arc<dyn Fn() -> bool + Send + Sync>;

/// How often a supervised child is polled.
const POLL: Duration = Duration::from_millis(25);
/// How often the group's memory is read (a scan of /proc).
const MEMORY_EVERY: Duration = Duration::from_millis(100);

/// What a supervised child may use.
#[derive(Clone)]
pub struct ChildLimits {
    /// The tool's own wall-clock limit, from when it starts.
    pub timeout: Duration,
    /// The run's end: the child is stopped then (ending [`ChildEnd::Deadline`]) even if it
    /// started late, after waiting for a shared resource.
    pub deadline: Option<Instant>,
    /// Resident memory of the whole process group, in bytes (`None`: no cap; not enforced where
    /// the platform cannot read it).
    pub memory_bytes: Option<u64>,
    /// Stops the child when it returns true.
    pub cancel: Option<CancelFn>,
}

impl ChildLimits {
    /// Only a wall-clock limit.
    pub fn timeout(timeout: Duration) -> ChildLimits {
        ChildLimits { timeout, deadline: None, memory_bytes: None, cancel: None }
    }
}

/// How a supervised child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildEnd {
    /// It exited by itself.
    Exited(ExitStatus),
    /// It was killed at its own wall-clock limit.
    TimedOut,
    /// It was killed when the run's budget ran out.
    Deadline,
    /// It was killed when its group's memory passed the cap.
    OverMemory,
    /// It was killed because the run was cancelled.
    Cancelled,
}

/// A finished supervised child.
#[derive(Debug, Clone, Copy)]
pub struct ChildOutcome {
    /// How it ended.
    pub end: ChildEnd,
    /// The most resident memory seen for its group, in bytes (0 where it cannot be read).
    pub peak_bytes: u64,
    /// How long it ran.
    pub took: Duration,
}

/// Starts `cmd` as the leader of a new process group and supervises it under `limits`.
pub fn run(cmd: &mut Command, limits: &ChildLimits) -> std::io::Result<ChildOutcome> {
    Supervised::spawn(cmd)?.wait(limits)
}

/// A child started as the leader of its own process group and not yet waited for: for a caller
/// that feeds its stdin or reads its stdout while it runs (an encoder fed frame by frame, a tool
/// whose progress arrives on a pipe). [`Supervised::check`] is one poll of the same supervision
/// [`run`] loops over; dropping the handle unreaped kills the whole group.
pub struct Supervised {
    group: Group,
    start: Instant,
    peak: u64,
    last_memory: Option<Instant>,
}

impl Supervised {
    /// Starts `cmd` as the leader of a new process group (set its pipes before).
    pub fn spawn(cmd: &mut Command) -> std::io::Result<Supervised> {
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let child = cmd.spawn()?;
        Ok(Supervised { group: Group { child, reaped: false }, start: Instant::now(), peak: 0, last_memory: None })
    }

    /// The child's pid, which is also its process group's id.
    pub fn id(&self) -> u32 {
        self.group.child.id()
    }

    /// The child, to take its stdin, stdout or stderr.
    pub fn child_mut(&mut self) -> &mut Child {
        &mut self.group.child
    }

    /// One poll: `Some` once the child exited (the rest of its group is killed) or once a limit
    /// said stop (the whole group is killed and reaped); `None` while it runs within `limits`.
    pub fn check(&mut self, limits: &ChildLimits) -> std::io::Result<Option<ChildOutcome>> {
        if self.group.reaped {
            return Err(std::io::Error::other("the supervised child was already reaped"));
        }
        if let Some(status) = self.group.child.try_wait()? {
            self.group.reaped = true;
            self.group.kill_rest();
            return Ok(Some(self.outcome(ChildEnd::Exited(status))));
        }
        let stop = if limits.cancel.as_ref().is_some_and(|c| c()) {
            Some(ChildEnd::Cancelled)
        } else if limits.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(ChildEnd::Deadline)
        } else if self.start.elapsed() >= limits.timeout {
            Some(ChildEnd::TimedOut)
        } else {
            None
        };
        let stop = stop.or_else(|| {
            if self.last_memory.is_some_and(|t| t.elapsed() < MEMORY_EVERY) {
                return None;
            }
            self.last_memory = Some(Instant::now());
            let now = group_resident_bytes(self.group.child.id());
            self.peak = self.peak.max(now);
            limits.memory_bytes.filter(|cap| now > *cap).map(|_| ChildEnd::OverMemory)
        });
        Ok(stop.map(|end| self.kill(end)))
    }

    /// Polls until the child exits or a limit stops it.
    pub fn wait(mut self, limits: &ChildLimits) -> std::io::Result<ChildOutcome> {
        loop {
            if let Some(outcome) = self.check(limits)? {
                return Ok(outcome);
            }
            std::thread::sleep(POLL);
        }
    }

    /// Kills the whole group now and reaps the leader; the outcome says `end`.
    pub fn kill(&mut self, end: ChildEnd) -> ChildOutcome {
        if !self.group.reaped {
            self.group.kill_all();
        }
        self.outcome(end)
    }

    fn outcome(&self, end: ChildEnd) -> ChildOutcome {
        ChildOutcome { end, peak_bytes: self.peak, took: self.start.elapsed() }
    }
}

/// The leader and its group; killed whole when dropped unreaped, so an early return or a panic
/// in the supervisor leaves no process behind.
struct Group {
    child: Child,
    reaped: bool,
}

impl Group {
    fn kill_all(&mut self) {
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }

    /// After the leader exited: whatever it left in its group goes too.
    fn kill_rest(&self) {
        kill_group(self.child.id());
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill_all();
        }
    }
}

/// Kills every process in the group `pgid` (a child started with `process_group(0)`); a no-op
/// elsewhere and for pids 0 and 1.
#[cfg(unix)]
#[allow(unsafe_code)] // one syscall, documented at the call
pub fn kill_group(pgid: u32) {
    if let Ok(pgid) = i32::try_from(pgid)
        && pgid > 1
    {
        // SAFETY: kill(2) with a negative pid signals the process group we created for this
        // child (process_group(0) made its pid the group id); it touches no memory of ours.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Kills every process in the group `pgid` (nothing to do where groups do not exist).
#[cfg(not(unix))]
pub fn kill_group(_pgid: u32) {}

/// Resident bytes of every process in the group `pgid` (Linux: read from /proc; elsewhere 0).
pub fn group_resident_bytes(pgid: u32) -> u64 {
    #[cfg(target_os = "linux")]
    {
        let page = 4096u64;
        let Ok(dir) = std::fs::read_dir("/proc") else { return 0 };
        let mut total = 0;
        for entry in dir.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().filter(|n| n.bytes().all(|b| b.is_ascii_digit())) else { continue };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
            // The command name is in parentheses and may hold spaces: fields count from after it.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { continue };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            // After ")": state(0) ppid(1) pgrp(2) … rss is field 24 of stat, index 21 here.
            if fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(pgid) {
                total += fields.get(21).and_then(|r| r.parse::<u64>().ok()).unwrap_or(0) * page;
            }
        }
        total
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pgid;
        0
    }
}

/// Processes still alive in the group `pgid` (Linux; elsewhere always 0). Tests use it to prove
/// nothing outlived a job.
pub fn group_alive(pgid: u32) -> usize {
    #[cfg(target_os = "linux")]
    {
        let Ok(dir) = std::fs::read_dir("/proc") else { return 0 };
        dir.flatten()
            .filter_map(|e| {
                let name = e.file_name();
                let pid = name.to_str()?.to_owned();
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                let rest = stat.rsplit_once(')')?.1.to_owned();
                let fields: Vec<&str> = rest.split_whitespace().collect();
                (fields.first() != Some(&"Z") && fields.get(2)?.parse::<u32>().ok()? == pgid).then_some(())
            })
            .count()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pgid;
        0
    }
}
