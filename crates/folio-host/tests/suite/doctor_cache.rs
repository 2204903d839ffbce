//! The doctor's version probes run once per changed tool, not once per start: a planted
//! `ffmpeg` (a shell script that counts its runs) is probed on the first start, answered from
//! `<state root>/doctor-cache.json` on the next, probed again when it changes, and always by the
//! doctor. A torn cache file is said and rewritten.

use std::path::{Path, PathBuf};

use folio_host::{Host, Refresh};
use folio_render::{HostPaths, Platform};

struct Fixture {
    _tmp: tempfile::TempDir,
    state: PathBuf,
    tool: PathBuf,
    count: PathBuf,
}

/// A fake ffmpeg that appends a line to `count` each time it runs and prints a version.
fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("state");
    let tool = tmp.path().join("ffmpeg");
    let count = tmp.path().join("count");
    write_tool(&tool, &count, "9.9");
    Fixture { state, tool, count, _tmp: tmp }
}

fn write_tool(tool: &Path, count: &Path, version: &str) {
    let script = format!(
        "#!/bin/sh\necho ran >> '{}'\necho 'ffmpeg version {version} Copyright (c) the authors'\n",
        count.display()
    );
    std::fs::write(tool, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// Builds a host that finds only the fake ffmpeg; returns its ffmpeg row's detail and warnings.
fn start(f: &Fixture, refresh: Refresh) -> (String, Vec<String>) {
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(f.state.clone());
    paths.env.insert("FOLIO_FFMPEG_PATH".into(), f.tool.display().to_string());
    let host = Host::builder().state_dir(Some(f.state.clone())).paths(paths).refresh(refresh).build().unwrap();
    let row = host.doctor().iter().find(|r| r.name == "ffmpeg").unwrap().clone();
    assert!(row.ok, "{row:?}");
    (row.detail, host.warnings().to_vec())
}

fn runs(f: &Fixture) -> usize {
    std::fs::read_to_string(&f.count).map(|t| t.lines().count()).unwrap_or(0)
}

#[cfg(unix)]
#[test]
fn an_unchanged_tool_is_probed_once_a_changed_one_again_and_the_doctor_always() {
    let f = fixture();
    let cases: &[(&str, Refresh, usize, &str)] = &[
        ("first start probes", Refresh::WhenChanged, 1, "9.9"),
        ("second start answers from the cache", Refresh::WhenChanged, 1, "9.9"),
        ("third start too", Refresh::WhenChanged, 1, "9.9"),
        ("the doctor always probes", Refresh::Always, 2, "9.9"),
        ("and the start after it is quiet", Refresh::WhenChanged, 2, "9.9"),
    ];
    for (what, refresh, expected, version) in cases {
        let (detail, warnings) = start(&f, *refresh);
        assert_eq!(runs(&f), *expected, "{what}");
        assert!(detail.contains(&format!("ffmpeg version {version}")), "{what}: {detail}");
        assert!(warnings.is_empty(), "{what}: {warnings:?}");
    }
    // An upgraded tool (other size, other modification time) is probed again, once.
    write_tool(&f.tool, &f.count, "10.1.2");
    for expected in [3, 3] {
        let (detail, _) = start(&f, Refresh::WhenChanged);
        assert_eq!(runs(&f), expected);
        assert!(detail.contains("ffmpeg version 10.1.2"), "{detail}");
    }
    let cache: serde_json::Value =
        serde_json::from_slice(&std::fs::read(f.state.join(folio_host::doctor_cache::CACHE_FILE)).unwrap()).unwrap();
    assert_eq!(cache["format"], 1);
    assert_eq!(cache["probes"][0]["program"], f.tool.display().to_string());
    assert_eq!(cache["probes"][0]["outcome"]["version"], "ffmpeg version 10.1.2");
}

#[cfg(unix)]
#[test]
fn a_torn_cache_is_said_probed_afresh_and_rewritten() {
    let f = fixture();
    start(&f, Refresh::WhenChanged);
    let file = f.state.join(folio_host::doctor_cache::CACHE_FILE);
    for torn in ["{ torn", "{\"format\": 99, \"probes\": []}", "{\"format\": 1}"] {
        std::fs::write(&file, torn).unwrap();
        let before = runs(&f);
        let (_, warnings) = start(&f, Refresh::WhenChanged);
        let said = warnings.join("\n");
        assert!(
            said.contains("doctor-cache.json could not be read (") && said.contains("rewritten now"),
            "{torn}: {said}"
        );
        assert_eq!(runs(&f), before + 1, "{torn}: a cache that cannot be read is not trusted");
        // Rewritten: the next start is quiet and spawns nothing.
        let (_, warnings) = start(&f, Refresh::WhenChanged);
        assert!(warnings.is_empty(), "{torn}: {warnings:?}");
        assert_eq!(runs(&f), before + 1, "{torn}");
    }
}

#[cfg(unix)]
#[test]
fn a_cache_that_cannot_be_written_is_said_and_the_rows_stay_right() {
    let f = fixture();
    // The state root is a file, so nothing can be created under it.
    std::fs::write(&f.state, "not a directory").unwrap();
    let (detail, warnings) = start(&f, Refresh::WhenChanged);
    assert!(detail.contains("ffmpeg version 9.9"), "{detail}");
    let said = warnings.join("\n");
    assert!(said.contains("could not be written (") && said.contains("hint:"), "{said}");
}

/// A tool that notes when it starts and ends in `log`, taking 0.3 s to answer.
#[cfg(unix)]
fn write_slow_tool(tool: &Path, log: &Path, name: &str) {
    let script = format!(
        "#!/bin/sh\necho start {name} >> '{log}'\nsleep 0.3\necho end {name} >> '{log}'\necho '{name} version 1.0'\n",
        log = log.display()
    );
    std::fs::write(tool, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(tool, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A first start asks every tool's version at once, not one after another: each of the three
/// tools has started before the first of them has answered.
#[cfg(unix)]
#[test]
fn a_first_start_probes_the_tools_side_by_side() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("log");
    let mut paths = HostPaths::isolated(Platform::current());
    let state = tmp.path().join("state");
    paths.state_dir = Some(state.clone());
    for (name, var) in
        [("ffmpeg", "FOLIO_FFMPEG_PATH"), ("ffprobe", "FOLIO_FFPROBE_PATH"), ("espeak-ng", "FOLIO_ESPEAK_PATH")]
    {
        let tool = tmp.path().join(name);
        write_slow_tool(&tool, &log, name);
        paths.env.insert(var.into(), tool.display().to_string());
    }
    let host = Host::builder().state_dir(Some(state)).paths(paths).build().unwrap();
    for name in ["ffmpeg", "ffprobe", "espeak-ng"] {
        let row = host.doctor().iter().find(|r| r.name == name).unwrap();
        assert!(row.detail.contains(&format!("{name} version 1.0")), "{row:?}");
    }
    let lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(String::from).collect();
    assert_eq!(lines.len(), 6, "each tool ran once: {lines:?}");
    let first_end = lines.iter().position(|l| l.starts_with("end")).unwrap();
    assert_eq!(first_end, 3, "every tool started before the first answered: {lines:?}");
}
