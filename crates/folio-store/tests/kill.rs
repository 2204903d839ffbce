//! SIGKILL during a conversation, a hundred times. A worker (this test binary re-run with
//! `kill_worker` as the filter) plays a conversation as the desktop does — every event of a turn
//! appended with `record_event` as it happens (hand-offs among them), the whole history saved with
//! `save_messages` at the end of the turn — and prints `KILL|begin|…` before each write and
//! `KILL|ack` after it, to a pipe the parent reads. The parent kills it after a random delay,
//! reopens the store and checks that the event log and the history replay intact: exactly the
//! acknowledged events in order (the one in flight may have landed, wholly), every body parses,
//! the hand-offs match the `presented` events, and the history is the last saved one.
//!
//! `FOLIO_KILL_SEED` fixes the seed (printed); `FOLIO_KILLS` sets the kills (default 100).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use folio_store::Store;
use serde_json::{Value, json};

/// The most the scenario may take; it then stops killing and reports the kills it made.
const DEADLINE: Duration = Duration::from_secs(25);

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(format!("KILL|{line}\n").as_bytes());
    let _ = out.flush();
}

fn text(rng: &mut Rng) -> String {
    let len = if rng.below(10) == 0 { rng.below(64 * 1024) } else { rng.below(400) };
    (0..len).map(|i| (b'a' + ((i + rng.below(3)) % 26) as u8) as char).collect()
}

/// The worker: does nothing unless run by the scenario below.
#[test]
fn kill_worker() {
    let (Ok(db), Ok(id), Ok(g), Ok(seed)) = (
        std::env::var("FOLIO_KILL_DB"),
        std::env::var("FOLIO_KILL_CONVERSATION"),
        std::env::var("FOLIO_KILL_GEN"),
        std::env::var("FOLIO_KILL_WORKER_SEED"),
    ) else {
        return;
    };
    let mut rng = Rng(seed.parse().unwrap());
    let store = Store::open(db.as_ref()).unwrap();
    // A restarted app goes on from the history it replays.
    let mut history = store.messages(&id).unwrap();
    say("ready");
    let stop = Instant::now() + Duration::from_secs(20);
    let mut n = 0;
    while Instant::now() < stop {
        n += 1;
        let mut turn = vec![json!({"type": "user", "gen": g, "n": n, "text": text(&mut rng)})];
        for k in 0..rng.below(6) {
            turn.push(match rng.below(4) {
                0 => json!({"type": "tool_call", "gen": g, "n": n, "k": k, "name": "ls", "args": {"path": "/"}}),
                1 => json!({"type": "presented", "gen": g, "n": n, "k": k, "path": format!("/out/{n}-{k}.pdf"),
                            "name": format!("{n}-{k}.pdf"), "media_type": "application/pdf", "size": k, "caption": "c"}),
                _ => json!({"type": "text", "gen": g, "n": n, "k": k, "text": text(&mut rng)}),
            });
        }
        for event in &turn {
            say(&format!("begin|event|{event}"));
            store.record_event(&id, event).unwrap();
            say("ack");
        }
        let added = vec![
            json!({"role": "user", "gen": g, "n": n, "text": turn[0]["text"]}),
            json!({"role": "assistant", "gen": g, "n": n, "text": text(&mut rng)}),
        ];
        let mut next = history.clone();
        next.extend(added.iter().cloned());
        say(&format!("begin|save|{}", Value::Array(added)));
        store.save_messages(&id, &next).unwrap();
        say("ack");
        history = next;
    }
}

#[derive(Debug, Default, serde::Serialize)]
struct Tally {
    scenario: &'static str,
    seed: u64,
    kills: usize,
    events_acked: usize,
    events_lost: usize,
    events_torn: usize,
    history_saves_acked: usize,
    histories_lost: usize,
    kills_mid_write: usize,
    secs: f64,
}

enum Op {
    Event(Value),
    Save(Vec<Value>),
}

fn record(section: &str, value: Value) {
    let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR").filter(|d| !d.is_empty()) else { return };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = std::fs::File::create(dir.join(".crash-load.lock")).unwrap();
    lock.lock().unwrap();
    let path = dir.join("crash-load.json");
    let mut doc = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({"area": "crash-load"}));
    doc[section] = value;
    let tmp = dir.join(format!(".crash-load.{}.tmp", std::process::id()));
    std::fs::write(&tmp, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
}

#[test]
fn sigkill_during_a_conversation_leaves_the_event_log_and_history_replaying_intact() {
    let seed = std::env::var("FOLIO_KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    let kills: usize = std::env::var("FOLIO_KILLS").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    println!("kill scenario conversation: seed {seed} (rerun with FOLIO_KILL_SEED={seed})");
    let mut rng = Rng(seed);
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("folio.sqlite");
    let id = Store::open(&db).unwrap().create_conversation(tmp.path(), "a long conversation").unwrap();
    let exe = std::env::current_exe().unwrap();
    let (mut events, mut history): (Vec<Value>, Vec<Value>) = (Vec::new(), Vec::new());
    let mut tally = Tally { scenario: "conversation", seed, ..Tally::default() };
    let started = Instant::now();
    for g in 1..=kills as u64 {
        if started.elapsed() > DEADLINE {
            println!("kill scenario conversation: deadline reached after {} kills", tally.kills);
            break;
        }
        let mut child = Command::new(&exe)
            .args(["--exact", "kill_worker", "--test-threads=1", "--nocapture"])
            .env("FOLIO_KILL_DB", &db)
            .env("FOLIO_KILL_CONVERSATION", &id)
            .env("FOLIO_KILL_GEN", g.to_string())
            .env("FOLIO_KILL_WORKER_SEED", rng.next().to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            while r.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                // Only whole lines count; libtest's "test … ... " may precede the first one.
                if buf.ends_with(b"\n")
                    && let Some((_, line)) = String::from_utf8_lossy(&buf).trim_end().split_once("KILL|")
                {
                    let _ = tx.send(line.to_owned());
                }
                buf.clear();
            }
        });
        assert_eq!(rx.recv_timeout(Duration::from_secs(20)).as_deref(), Ok("ready"), "seed {seed} gen {g}");
        std::thread::sleep(Duration::from_millis(rng.below(41)));
        child.kill().unwrap();
        assert!(!child.wait().unwrap().success(), "seed {seed} gen {g}: the worker ended before the kill");
        reader.join().unwrap();
        tally.kills += 1;

        let mut in_flight = None;
        for line in rx.try_iter() {
            if let Some(rest) = line.strip_prefix("begin|event|") {
                in_flight = Some(Op::Event(serde_json::from_str(rest).unwrap()));
            } else if let Some(rest) = line.strip_prefix("begin|save|") {
                in_flight = Some(Op::Save(serde_json::from_str(rest).unwrap()));
            } else if line == "ack" {
                match in_flight.take().unwrap() {
                    Op::Event(e) => {
                        events.push(e);
                        tally.events_acked += 1;
                    }
                    Op::Save(added) => {
                        history.extend(added);
                        tally.history_saves_acked += 1;
                    }
                }
            }
        }
        tally.kills_mid_write += usize::from(in_flight.is_some());

        let store = Store::open(&db).unwrap_or_else(|e| panic!("seed {seed} gen {g}: the store does not open: {e}"));
        let seen = store.events(&id).unwrap();
        tally.events_torn += seen.iter().filter(|e| e.is_null()).count();
        let mut with_flight = events.clone();
        if let Some(Op::Event(e)) = &in_flight {
            with_flight.push(e.clone());
        }
        if seen != events && seen != with_flight {
            let kept = seen.iter().zip(&events).take_while(|(a, b)| a == b).count();
            tally.events_lost += events.len().saturating_sub(kept).max(1);
            println!("seed {seed} gen {g}: event log differs after {kept} of {} acked events", events.len());
        }
        events = seen;
        let presented_events = events.iter().filter(|e| e["type"] == "presented").count();
        assert_eq!(
            store.presented(&id).unwrap().len(),
            presented_events,
            "seed {seed} gen {g}: hand-offs and presented events disagree"
        );
        let saved = store.messages(&id).unwrap();
        let mut history_flight = history.clone();
        if let Some(Op::Save(added)) = &in_flight {
            history_flight.extend(added.iter().cloned());
        }
        if saved != history && saved != history_flight {
            tally.histories_lost += 1;
            println!("seed {seed} gen {g}: history has {} messages, acked {}", saved.len(), history.len());
        }
        history = saved;
    }
    tally.secs = started.elapsed().as_secs_f64();
    println!("kill scenario conversation: {tally:?}");
    record("kill_conversation", serde_json::to_value(&tally).unwrap());
    assert_eq!(tally.events_torn, 0, "{tally:?}");
    assert_eq!(tally.events_lost, 0, "{tally:?}");
    assert_eq!(tally.histories_lost, 0, "{tally:?}");
    assert!(tally.kills >= kills.min(20), "too few kills in the time allowed: {tally:?}");
    assert!(tally.events_acked > tally.kills, "the worker did almost nothing before each kill: {tally:?}");
}
