//! Every doctor fix line works when followed. For each row that can be red on a new machine,
//! the test makes it red (tools hidden through the host builder's paths, or a child `folio
//! doctor` with the variables removed and `HOME` empty), reads the row's fix line, does what it
//! says, and checks the row turns green. An install command that needs root or the network is
//! not run: the test checks instead that it names packages this system's apt knows and that
//! `scripts/install.sh` installs (or, for PDFium, that `scripts/get-pdfium.sh` fills the directory
//! the line names), and then follows the part that needs neither.
#![allow(clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use folio_host::Host;
use folio_render::discovery::{first_existing, pdfium_candidates};
use folio_render::{Capability, HostPaths, Platform};
use serde_json::Value;

use crate::fix_line::{apt_packages, export_group, says_unset, variable_to_set};

fn repo_file(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The row `name` of a host whose discovery sees only `env` (no system locations).
fn host_row(state: &Path, env: &BTreeMap<String, String>, name: &str) -> Capability {
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(state.to_path_buf());
    paths.env = env.clone();
    let host = Host::builder().state_dir(Some(state.to_path_buf())).paths(paths).build().unwrap();
    host.doctor().iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no {name} row")).clone()
}

/// An executable `name` on this machine's PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// A stand-in that answers the doctor's version probe as the tool does.
fn fake_tool(dir: &Path, name: &str, version: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The install part of a fix: every package is one apt knows here (when apt's lists are
/// there), and `scripts/install.sh` installs the ones Folio's modules and previews use.
fn check_install_part(row: &str, fix: &str, in_install_sh: bool) {
    let packages = apt_packages(fix);
    assert!(!packages.is_empty(), "{row}: the fix names what to install: {fix}");
    let install = repo_file("scripts/install.sh");
    for package in &packages {
        if in_install_sh {
            assert!(install.contains(package.as_str()), "{row}: scripts/install.sh installs {package}");
        }
        match Command::new("apt-cache").args(["policy", package]).output() {
            Ok(out) if String::from_utf8_lossy(&out.stdout).contains("Candidate:") => {
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                assert!(!text.contains("Candidate: (none)"), "{row}: apt has no package {package}: {text}");
            }
            _ => println!("{row}: apt-cache knows no {package} here (no apt or no lists) — package name not checked"),
        }
    }
}

/// LibreOffice, Chromium, ffmpeg, ffprobe and espeak-ng: hidden, each row's fix is followed (the variable it names
/// set to the executable), and an explicit path that names nothing is fixed by unsetting it
/// with the tool on PATH.
#[test]
fn each_tool_row_turns_green_when_its_fix_is_followed() {
    if Platform::current() != Platform::Linux {
        println!("skipped: the apt install lines are Linux's");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    // (row, the executable the person has, whether scripts/install.sh installs it)
    let soffice = on_path("soffice").or_else(|| Some(PathBuf::from("/usr/bin/soffice")).filter(|p| p.is_file()));
    let ffmpeg = on_path("ffmpeg").unwrap_or_else(|| fake_tool(&bin, "ffmpeg", "ffmpeg version 9.9 Copyright"));
    let chromium = on_path("chromium").unwrap_or_else(|| fake_tool(&bin, "chromium", "Chromium 140.0 (fake)"));
    let ffprobe = on_path("ffprobe").unwrap_or_else(|| fake_tool(&bin, "ffprobe", "ffprobe version 9.9 Copyright"));
    let espeak =
        on_path("espeak-ng").unwrap_or_else(|| fake_tool(&bin, "espeak-ng", "eSpeak NG text-to-speech: 1.51 (fake)"));
    let cases: [(&str, Option<PathBuf>, bool); 5] = [
        ("libreoffice", soffice, true),
        ("ffmpeg", Some(ffmpeg), true),
        ("ffprobe", Some(ffprobe), true),
        ("espeak-ng", Some(espeak), true),
        ("chromium", Some(chromium), true),
    ];
    for (row, exe, in_install_sh) in cases {
        let Some(exe) = exe else {
            println!("{row}: skipped — no executable on this machine to point the fix at");
            continue;
        };
        let state = tmp.path().join(format!("state-{row}"));
        // Red: nothing to be found.
        let mut env = BTreeMap::new();
        let red = host_row(&state, &env, row);
        assert!(!red.ok && !red.required, "{row} is hidden: {red:?}");
        check_install_part(row, &red.fix, in_install_sh);
        let var = variable_to_set(&red.fix).unwrap_or_else(|| panic!("{row}: the fix names a variable: {}", red.fix));
        env.insert(var.clone(), exe.display().to_string());
        let green = host_row(&state, &env, row);
        assert!(green.ok, "{row}: following `{}` ({var}={}) turns it green: {green:?}", red.fix, exe.display());

        // Red again: the variable names nothing. The fix says to re-point it or unset it.
        env.insert(var.clone(), "/nonexistent/tool".into());
        let red = host_row(&state, &env, row);
        assert!(!red.ok, "{row}: {red:?}");
        assert!(says_unset(&red.fix) && red.fix.contains(&var), "{row}: the fix says to fix {var} first: {}", red.fix);
        check_install_part(row, &red.fix, in_install_sh);
        env.remove(&var);
        let link_dir = tmp.path().join(format!("path-{row}"));
        std::fs::create_dir_all(&link_dir).unwrap();
        let name = if row == "libreoffice" { "soffice" } else { row };
        std::os::unix::fs::symlink(&exe, link_dir.join(name)).unwrap();
        env.insert("PATH".into(), link_dir.display().to_string());
        let green = host_row(&state, &env, row);
        assert!(green.ok, "{row}: unsetting {var} with the tool on PATH turns it green: {green:?}");
    }
}

/// A child `folio doctor --json` with `HOME` and the state root empty and none of the
/// variables the doctor reads, plus `set`.
fn doctor(tmp: &Path, set: &[(String, String)]) -> (Vec<Value>, Option<i32>) {
    let home = tmp.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_folio"));
    cmd.args(["--state-dir", tmp.join("state").to_str().unwrap(), "doctor", "--json"]).env("HOME", &home);
    for var in [
        "FOLIO_PDFIUM_PATH",
        "FOLIO_PDFIUM_CACHE",
        "FOLIO_STATE_DIR",
        "FOLIO_PROVIDER",
        "FOLIO_MODEL",
        "FOLIO_BASE_URL",
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "OPENROUTER_API_KEY",
        "GEMINI_API_KEY",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in set {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let report: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (report["capabilities"].as_array().unwrap().clone(), out.status.code())
}

fn row<'a>(rows: &'a [Value], name: &str) -> &'a Value {
    rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no {name} row: {rows:?}"))
}

/// PDFium, the one required row: hidden from a child `folio doctor`; its fix line's two
/// halves are followed — the directory `scripts/get-pdfium.sh` fills (which the line names) is
/// given the library, or FOLIO_PDFIUM_PATH is set to it — and an explicit path that names
/// nothing is fixed by unsetting it, as its own fix line says.
#[test]
fn the_pdfium_row_turns_green_when_its_fix_is_followed() {
    let Some(lib) = first_existing(&pdfium_candidates(None, &HostPaths::from_host(None))).map(|c| c.path.clone())
    else {
        println!("skipped: no PDFium on this machine to follow the fix with (run scripts/get-pdfium.sh)");
        return;
    };
    let exe_dir = Path::new(env!("CARGO_BIN_EXE_folio")).parent().unwrap().to_path_buf();
    let file = Platform::current().pdfium_file_name();
    if [exe_dir.join(file), exe_dir.join("resources").join(file), exe_dir.join("../lib/folio").join(file)]
        .iter()
        .any(|p| p.is_file())
    {
        println!("skipped: a PDFium beside the folio binary cannot be hidden");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (rows, code) = doctor(tmp.path(), &[]);
    let red = row(&rows, "pdfium");
    assert_eq!((red["ok"].as_bool(), code), (Some(false), Some(1)), "hidden, and required: {red}");
    let fix = red["fix"].as_str().unwrap().to_string();

    // The install half: the project's own script, which puts the library where the line says.
    assert!(fix.contains("bash scripts/get-pdfium.sh"), "{fix}");
    assert!(repo_file("scripts/install.sh").contains("get-pdfium.sh"), "install.sh runs get-pdfium.sh");
    let dir = fix.split(" in ").nth(1).and_then(|s| s.split(')').next()).unwrap_or_else(|| panic!("{fix}"));
    assert_eq!(dir, "~/.cache/folio/pdfium", "{fix}");
    assert!(repo_file("scripts/get-pdfium.sh").contains("$HOME/.cache/folio/pdfium"), "the script's default");
    let cache = tmp.path().join("home").join(dir.trim_start_matches("~/"));
    std::fs::create_dir_all(&cache).unwrap();
    std::os::unix::fs::symlink(&lib, cache.join(file)).unwrap();
    let (rows, code) = doctor(tmp.path(), &[]);
    assert_eq!((row(&rows, "pdfium")["ok"].as_bool(), code), (Some(true), Some(0)), "{rows:?}");
    std::fs::remove_file(cache.join(file)).unwrap();

    // The other half: the variable it names, set to a library.
    let var = variable_to_set(&fix).unwrap();
    assert_eq!(var, "FOLIO_PDFIUM_PATH");
    let (rows, code) = doctor(tmp.path(), &[(var.clone(), lib.display().to_string())]);
    assert_eq!((row(&rows, "pdfium")["ok"].as_bool(), code), (Some(true), Some(0)), "{rows:?}");

    // The variable naming nothing: installing would not help; the line says to unset it.
    let (rows, _) = doctor(tmp.path(), &[(var.clone(), "/nonexistent/libpdfium.so".into())]);
    let red = row(&rows, "pdfium");
    let fix = red["fix"].as_str().unwrap();
    assert!(red["ok"] == false && says_unset(fix) && fix.contains(&var), "{red}");
    std::os::unix::fs::symlink(&lib, cache.join(file)).unwrap();
    let (rows, code) = doctor(tmp.path(), &[]);
    assert_eq!((row(&rows, "pdfium")["ok"].as_bool(), code), (Some(true), Some(0)), "unset, installed: {rows:?}");
}

/// The provider row, from each red state a new user can be in: its fix line is followed (the
/// `export` group it offers, placeholders filled as a person would) until the row is green,
/// and the variables set on the way are the expected ones.
#[test]
fn the_provider_row_turns_green_when_its_fix_is_followed() {
    // (what the person has set, which offered export they take — "" for the first — the
    // variables each followed fix line sets)
    type Case = (&'static [(&'static str, &'static str)], &'static str, &'static [&'static [&'static str]]);
    let cases: &[Case] = &[
        (&[], "ANTHROPIC_API_KEY", &[&["ANTHROPIC_API_KEY"]]),
        (&[], "FOLIO_PROVIDER", &[&["FOLIO_PROVIDER", "FOLIO_MODEL"]]),
        (&[("FOLIO_PROVIDER", "ollama")], "", &[&["FOLIO_MODEL"]]),
        (&[("FOLIO_PROVIDER", "lmstudio")], "", &[&["FOLIO_MODEL"]]),
        (&[("FOLIO_PROVIDER", "openai")], "", &[&["OPENAI_API_KEY"]]),
        (&[("FOLIO_PROVIDER", "nope")], "", &[&["FOLIO_PROVIDER"], &["FOLIO_MODEL"]]),
    ];
    let tmp = tempfile::tempdir().unwrap();
    for (start, take, expected) in cases {
        let mut set: Vec<(String, String)> = start.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let mut steps: Vec<Vec<String>> = Vec::new();
        let mut first = true;
        loop {
            let (rows, _) = doctor(tmp.path(), &set);
            let provider = row(&rows, "provider").clone();
            if provider["ok"] == true {
                if first {
                    // Only a key in this machine's keychain (which a test cannot hide) makes it
                    // green before any fix is followed.
                    assert!(
                        provider["detail"].as_str().unwrap().contains("keychain"),
                        "{start:?} starts red: {provider}"
                    );
                    println!("skipped {start:?}: this machine's keychain holds a key, so the row cannot be red");
                }
                break;
            }
            assert!(steps.len() < expected.len(), "{start:?}: still red after {steps:?}: {provider}");
            let fix = provider["fix"].as_str().unwrap();
            let group = export_group(fix, if first { take } else { "" });
            steps.push(group.iter().map(|(k, _)| k.clone()).collect());
            for (k, v) in group {
                set.retain(|(key, _)| *key != k);
                set.push((k, v));
            }
            first = false;
        }
        if !first {
            let expected: Vec<Vec<String>> =
                expected.iter().map(|s| s.iter().map(|v| v.to_string()).collect()).collect();
            assert_eq!(steps, expected, "{start:?}: the fix lines followed");
        }
    }
}

/// The provider row is the provider `folio ask` would use: the one saved in Settings (or with
/// `folio settings set`) over the `FOLIO_*` defaults, as the app's Doctor shows it.
#[test]
fn the_provider_row_reads_the_saved_settings() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("state");
    let secrets = folio_store::Secrets::file_only(&state.join("keys.json"));
    let ws = folio_workspace::Workspace::open_with(state, secrets, folio_workspace::Overrides::default()).unwrap();
    let saved = folio_workspace::Settings {
        provider: folio_workspace::ProviderName::Ollama,
        model: "llama3".into(),
        ..folio_workspace::Settings::defaults().unwrap()
    };
    ws.save_settings(&saved, None).unwrap();
    // FOLIO_PROVIDER names another provider: the saved one wins, as in `folio ask`.
    let (rows, _) = doctor(tmp.path(), &[("FOLIO_PROVIDER".to_owned(), "openai".to_owned())]);
    let provider = row(&rows, "provider");
    assert_eq!(provider["ok"], true, "{provider}");
    let detail = provider["detail"].as_str().unwrap();
    assert!(detail.contains("ollama") && detail.contains("llama3"), "{detail}");
}

/// A key the desktop app saved under the state root (where no keychain runs) is the key `folio
/// ask` uses, so the doctor finds it too instead of advising to export one.
#[test]
fn the_provider_row_finds_the_key_file_folio_ask_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = tmp.path().join("state").join("keys.json");
    folio_store::Secrets::file_only(&keys).set("anthropic", "sk-ant-saved").unwrap();
    let (rows, _) = doctor(tmp.path(), &[]);
    let provider = row(&rows, "provider");
    assert_eq!(provider["ok"], true, "{provider}");
    let detail = provider["detail"].as_str().unwrap();
    assert!(detail.contains("keys.json") || detail.contains("keychain"), "{detail}");
}
