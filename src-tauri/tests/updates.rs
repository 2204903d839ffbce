//! Signed updates against a release server on 127.0.0.1, through the real updater plugin on
//! Tauri's mock runtime. A keypair is made at run time with the `minisign` crate (the one
//! `tauri signer` signs with), the manifest and bundle are served by a tiny HTTP server that
//! counts every connection, and the plugin's own check, download and signature verification
//! decide: a valid bundle is accepted with its bytes delivered; a bundle whose bytes changed, a
//! signature made with another key, or one made for another version is refused with its named
//! error, and nothing is installed (the install path is never reached with a real update: on
//! Linux it would replace this test's own executable). With "check at start" off, the server
//! sees no connection at all.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use folio_desktop::api::*;
use folio_desktop::commands::AppState;
use folio_desktop::updates::{self, UpdateError, Updates};
use serde_json::{Value, json};
use tauri::Manager;
use tauri::test::{mock_builder, mock_context, noop_assets};

mod mock;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// An HTTP/1.1 server on 127.0.0.1 answering fixed paths, counting connections. Stops on drop.
struct Server {
    addr: SocketAddr,
    connections: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    routes: Arc<Mutex<HashMap<String, Vec<u8>>>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let routes: Arc<Mutex<HashMap<String, Vec<u8>>>> = Arc::default();
        let (count, log, halt, table) = (connections.clone(), requests.clone(), stop.clone(), routes.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if halt.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(mut stream) = stream else { continue };
                count.fetch_add(1, Ordering::SeqCst);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
                    match stream.read(&mut byte) {
                        Ok(1) => head.push(byte[0]),
                        _ => break,
                    }
                }
                let line = String::from_utf8_lossy(&head).lines().next().unwrap_or_default().to_owned();
                let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
                log.lock().unwrap().push(line);
                let (status, body) = match table.lock().unwrap().get(&path) {
                    Some(body) => ("200 OK", body.clone()),
                    None => ("404 Not Found", b"not found".to_vec()),
                };
                let header = format!(
                    "HTTP/1.1 {status}\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(header.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        Server { addr, connections, requests, stop, routes }
    }

    fn route(&self, path: &str, body: Vec<u8>) {
        self.routes.lock().unwrap().insert(path.to_owned(), body);
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

/// A minisign keypair as `tauri signer generate` makes one: the public key as the config holds
/// it (base64 of the `.pub` file's text).
struct Keys {
    pair: minisign::KeyPair,
}

impl Keys {
    fn new() -> Keys {
        Keys { pair: minisign::KeyPair::generate_unencrypted_keypair().unwrap() }
    }

    fn pubkey(&self) -> String {
        B64.encode(self.pair.pk.to_box().unwrap().to_string())
    }

    /// The manifest's `signature`: base64 of the `.sig` file's text, its trusted comment naming
    /// the file and the version as the Tauri CLI writes it.
    fn sign(&self, bytes: &[u8], version: &str) -> String {
        let trusted = format!("timestamp:1764633600\tfile:Folio_{version}_amd64.AppImage\tversion:{version}");
        let sig = minisign::sign(
            Some(&self.pair.pk),
            &self.pair.sk,
            std::io::Cursor::new(bytes),
            Some(&trusted),
            Some("signature from tauri secret key"),
        )
        .unwrap();
        B64.encode(sig.to_string())
    }
}

/// A release: what the manifest announces and what the bundle URL serves.
struct Release {
    version: &'static str,
    signature: String,
    served: Vec<u8>,
}

/// Serves `release` as `latest.json` (the static format tauri-action uploads) and its bundle.
fn serve(release: &Release) -> Server {
    let server = Server::start();
    let manifest = json!({
        "version": release.version,
        "notes": "Faster previews.",
        "pub_date": "2026-12-01T12:00:00Z",
        "platforms": {
            tauri_plugin_updater::target().unwrap(): { "url": server.url("/bundle.tar.gz"), "signature": release.signature }
        }
    });
    server.route("/latest.json", serde_json::to_vec(&manifest).unwrap());
    server.route("/bundle.tar.gz", release.served.clone());
    server
}

/// The app with its commands and the updater plugin, configured as a release build would be
/// with `pubkey` and `endpoint` (the committed config names no endpoint); updates go direct to
/// 127.0.0.1, never through a proxy.
fn app_with(pubkey: &str, endpoint: &str) -> mock::App {
    let state = tempfile::tempdir().unwrap();
    let mut context = mock_context(noop_assets());
    context.config_mut().plugins.0.insert("updater".into(), json!({ "pubkey": pubkey, "endpoints": [endpoint] }));
    let base = updates::plugin(mock_builder(), Updates::direct());
    let app = folio_desktop::builder(base, AppState::new(Some(state.path().to_path_buf()))).build(context).unwrap();
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    mock::App { app, webview, state }
}

fn check(app: &mock::App, trigger: &str) -> UpdateCheckResponse {
    mock::call(app, "update_check", json!({ "params": { "trigger": trigger } })).unwrap()
}

/// What a served release should come to.
#[derive(Debug, PartialEq)]
enum Expect {
    /// Accepted: the bytes delivered are the ones signed.
    Accepted,
    /// Refused with this error.
    Refused(UpdateErrorName),
}

/// Checks `release` from a fresh app trusting `keys`, then downloads and verifies it.
fn check_release(name: &str, keys: &Keys, release: Release, expect: Expect) {
    let server = serve(&release);
    let app = app_with(&keys.pubkey(), &server.url("/latest.json"));
    let found = check(&app, "manual");
    assert_eq!(found.outcome, UpdateOutcomeName::Available, "{name}: {found:?}");
    assert_eq!(found.version.as_deref(), Some(release.version), "{name}");
    assert_eq!(found.notes.as_deref(), Some("Faster previews."), "{name}");
    assert_eq!(found.date.as_deref(), Some("2026-12-01T12:00:00Z"), "{name}");
    assert!(found.message.contains(release.version), "{name}: {}", found.message);

    let updates = app.app.state::<Updates>();
    let update = updates::found(&updates).expect("the check keeps the update it found");
    let mut seen = Vec::new();
    let mut progress = |n: UpdateProgressNotification| seen.push(n);
    let got = tauri::async_runtime::block_on(updates::download(&update, &mut progress));
    match (got, expect) {
        (Ok(bytes), Expect::Accepted) => {
            assert_eq!(bytes, release.served, "{name}: the verified bytes are the served ones");
            let last = seen.last().expect("progress is reported");
            assert_eq!(
                (last.phase, last.downloaded, last.total),
                (UpdatePhase::Downloading, bytes.len() as u64, Some(bytes.len() as u64)),
                "{name}"
            );
        }
        (Err(e), Expect::Refused(want)) => {
            assert_eq!(e.name(), want, "{name}: {e}");
            let text = e.to_string();
            assert!(text.contains("not installed") && text.contains(" — hint: "), "{name}: {text}");
        }
        (got, want) => panic!("{name}: expected {want:?}, got {:?}", got.map(|b| b.len())),
    }
    let requests = server.requests.lock().unwrap().clone();
    assert!(requests.iter().any(|r| r.starts_with("GET /latest.json")), "{name}: {requests:?}");
    assert!(requests.iter().any(|r| r.starts_with("GET /bundle.tar.gz")), "{name}: {requests:?}");
}

#[test]
fn a_signed_bundle_is_accepted_and_a_tampered_one_refused() {
    let keys = Keys::new();
    let other = Keys::new();
    // Bytes shaped like the AppImage's .tar.gz (the verifier does not care what they are).
    let bundle: Vec<u8> = (0..700_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let mut changed = bundle.clone();
    changed[123_456] ^= 0x01;
    let cases = [
        (
            "valid",
            Release { version: "99.0.0", signature: keys.sign(&bundle, "99.0.0"), served: bundle.clone() },
            Expect::Accepted,
        ),
        (
            "bundle bytes changed after signing",
            Release { version: "99.0.0", signature: keys.sign(&bundle, "99.0.0"), served: changed },
            Expect::Refused(UpdateErrorName::BadSignature),
        ),
        (
            "signature swapped for one made with another key",
            Release { version: "99.0.0", signature: other.sign(&bundle, "99.0.0"), served: bundle.clone() },
            Expect::Refused(UpdateErrorName::BadSignature),
        ),
        (
            "signature is not minisign at all",
            Release {
                version: "99.0.0",
                signature: B64.encode("untrusted comment: nothing\nAAAA\n"),
                served: bundle.clone(),
            },
            Expect::Refused(UpdateErrorName::BadSignature),
        ),
        (
            "an older release's signed bundle announced as newer",
            Release { version: "99.0.0", signature: keys.sign(&bundle, "0.0.9"), served: bundle.clone() },
            Expect::Refused(UpdateErrorName::VersionMismatch),
        ),
    ];
    for (name, release, expect) in cases {
        check_release(name, &keys, release, expect);
    }
}

#[test]
fn with_check_at_start_off_no_request_is_made() {
    let keys = Keys::new();
    let bundle = b"bundle".to_vec();
    let server = serve(&Release { version: "99.0.0", signature: keys.sign(&bundle, "99.0.0"), served: bundle });
    let app = app_with(&keys.pubkey(), &server.url("/latest.json"));

    let view: UpdateGetResponse = mock::call(&app, "update_get", json!({})).unwrap();
    assert!(view.settings.check_at_start, "checking at start is on by default");
    assert_eq!(view.endpoints, vec![server.url("/latest.json")]);
    let off = UpdateSettings { check_at_start: false };
    let saved: UpdateGetResponse = mock::call(&app, "update_save", json!({ "params": { "settings": off } })).unwrap();
    assert_eq!(saved.settings, off, "the setting persists");

    let skipped = check(&app, "start");
    assert_eq!(skipped.outcome, UpdateOutcomeName::Skipped, "{skipped:?}");
    assert!(skipped.message.contains("no request was made"), "{}", skipped.message);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        server.connections(),
        0,
        "the server saw a connection with the setting off: {:?}",
        server.requests.lock().unwrap()
    );

    // The same listener does see the check once it is on (so the zero above means something),
    // and "Check now" runs whatever the setting says.
    let asked = check(&app, "manual");
    assert_eq!(asked.outcome, UpdateOutcomeName::Available, "{asked:?}");
    assert_eq!(server.connections(), 1);
    let on: UpdateGetResponse =
        mock::call(&app, "update_save", json!({ "params": { "settings": { "checkAtStart": true } } })).unwrap();
    assert!(on.settings.check_at_start);
    assert_eq!(check(&app, "start").outcome, UpdateOutcomeName::Available);
    assert_eq!(server.connections(), 2);
}

#[test]
fn check_failures_are_named_with_their_fix() {
    let keys = Keys::new();
    // Nothing listens on a port just freed: no update server answers.
    let closed = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/latest.json", l.local_addr().unwrap())
    };
    let server = Server::start();
    server.route("/broken.json", b"{ this is not json".to_vec());
    server.route(
        "/other-os.json",
        serde_json::to_vec(&json!({
            "version": "99.0.0",
            "platforms": { "plan9-mips": { "url": server.url("/x"), "signature": "x" } }
        }))
        .unwrap(),
    );
    let cases = [
        (closed.as_str(), UpdateErrorName::Unreachable, "check the network"),
        (&server.url("/missing.json") as &str, UpdateErrorName::NoManifest, "no release is published"),
        (&server.url("/broken.json") as &str, UpdateErrorName::BadManifest, "releases page"),
        (&server.url("/other-os.json") as &str, UpdateErrorName::NoBuildForPlatform, "releases page"),
    ];
    for (endpoint, want, fix) in cases {
        let app = app_with(&keys.pubkey(), endpoint);
        let got = check(&app, "manual");
        assert_eq!((got.outcome, got.error), (UpdateOutcomeName::Failed, Some(want)), "{endpoint}: {got:?}");
        assert!(
            got.message.contains(endpoint) || want == UpdateErrorName::NoBuildForPlatform,
            "{endpoint}: {}",
            got.message
        );
        assert!(got.hint.as_deref().unwrap_or_default().contains(fix), "{endpoint}: {:?}", got.hint);
    }
}

#[test]
fn a_build_without_an_endpoint_never_checks_and_nothing_installs_unchecked() {
    // The committed config: a public key, no endpoint (only the release workflow adds one).
    let conf: Value = serde_json::from_str(include_str!("../tauri.conf.json")).unwrap();
    let updater = &conf["plugins"]["updater"];
    assert!(updater["pubkey"].as_str().is_some_and(|k| !k.is_empty()), "{updater}");
    assert_eq!(updater["endpoints"], json!([]), "a build from source must not check for updates");

    let state = tempfile::tempdir().unwrap();
    let mut context = mock_context(noop_assets());
    context.config_mut().plugins.0.insert("updater".into(), updater.clone());
    let app = folio_desktop::builder(
        updates::plugin(mock_builder(), Updates::direct()),
        AppState::new(Some(state.path().to_path_buf())),
    )
    .build(context)
    .unwrap();
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    let app = mock::App { app, webview, state };
    assert_eq!(check(&app, "start").outcome, UpdateOutcomeName::Skipped);
    let manual = check(&app, "manual");
    assert_eq!(manual.error, Some(UpdateErrorName::NotConfigured), "{manual:?}");
    assert!(manual.hint.unwrap().contains("install a release"));

    let updates = app.app.state::<Updates>();
    let mut progress = |_: UpdateProgressNotification| {};
    let refused = tauri::async_runtime::block_on(updates::install(&updates, &mut progress));
    assert_eq!(refused.unwrap_err(), UpdateError::NothingToInstall);
}

#[test]
fn the_settings_answer_without_the_plugin_and_with_no_endpoint() {
    // The mock app of the other command tests: no updater plugin, no `plugins.updater` config.
    let app = mock::app();
    let view: UpdateGetResponse = mock::call(&app, "update_get", json!({})).unwrap();
    assert_eq!((view.settings.check_at_start, view.endpoints.len()), (true, 0));
}
