//! The provenance commands through Tauri's mock runtime (no display): `provenance_get` names the
//! script, its inputs and the run; an input changed on disk makes it stale naming that input;
//! `provenance_regenerate` re-runs the script as a pending change (seen by `status_get`) with a
//! record of its own; a changed script is refused with the fix; an unknown file is `unknown`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use folio_desktop::api::*;
use serde_json::json;

mod mock;
use mock::{app, call};

const TALLY: &str = "import * as fs from 'env:fs';\nexport default async function ({ scale }) {\n  const t = await fs.readFile('/inbox/a.csv');\n  const total = t.trim().split('\\n').slice(1).map((l) => Number(l.split(',')[1])).reduce((a, b) => a + b, 0);\n  await fs.writeFile('/out/total.txt', String(total * scale));\n}\n";

#[test]
fn provenance_is_shown_goes_stale_and_regenerates_as_a_pending_change() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("inbox")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("inbox/a.csv"), "k,v\na,1\nb,2\n").unwrap();
    std::fs::write(dir.path().join("scripts/tally.js"), TALLY).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let err = call::<ProvenanceGetResponse>(&app, "provenance_get", json!({"params": {"path": "/out/total.txt"}}))
        .unwrap_err();
    assert!(err.contains("no folder is open"), "{err}");
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let state = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview);
    let session = state.current().unwrap();
    let run = session
        .run_script(
            ScriptsRunParams { path: "/scripts/tally.js".into(), args: Some(json!({"scale": 10})) },
            Box::new(|_| {}),
        )
        .unwrap();
    assert!(run.ok, "{run:?}");

    let got: ProvenanceGetResponse =
        call(&app, "provenance_get", json!({"params": {"path": "/out/total.txt"}})).unwrap();
    assert_eq!(got.standing, ProvenanceStanding::Current, "{got:?}");
    let made = got.made.unwrap();
    assert_eq!(
        (made.script.as_str(), made.origin, made.script_state),
        ("/scripts/tally.js", ProvenanceOriginKind::Direct, ProvenanceScriptState::Same)
    );
    assert_eq!(made.inputs.len(), 1);
    assert_eq!((made.inputs[0].path.as_str(), made.inputs[0].changed), ("/inbox/a.csv", false));
    assert!(got.line.contains("made by /scripts/tally.js") && got.line.contains("no model"), "{}", got.line);

    std::fs::write(dir.path().join("inbox/a.csv"), "k,v\na,1\nb,5\n").unwrap();
    let got: ProvenanceGetResponse =
        call(&app, "provenance_get", json!({"params": {"path": "/out/total.txt"}})).unwrap();
    assert_eq!(got.standing, ProvenanceStanding::Stale);
    let made = got.made.unwrap();
    assert!(made.inputs[0].changed && !made.inputs[0].gone, "{made:?}");

    let done: ProvenanceRegenerateResponse =
        call(&app, "provenance_regenerate", json!({"params": {"path": "/out/total.txt"}})).unwrap();
    assert!(done.changed && done.pending, "{done:?}");
    assert_eq!((done.before_size, done.after_size), (2, 2));
    assert_eq!(done.changed_inputs, vec!["/inbox/a.csv".to_owned()]);
    let status: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    assert!(status.changes.iter().any(|c| c.path == "/out/total.txt"), "{:?}", status.changes);
    let file: FileReadResponse = call(&app, "file_read", json!({"params": {"path": "/out/total.txt"}})).unwrap();
    assert_eq!(file.text.as_deref(), Some("60"));
    let got: ProvenanceGetResponse =
        call(&app, "provenance_get", json!({"params": {"path": "/out/total.txt"}})).unwrap();
    assert_eq!(got.standing, ProvenanceStanding::Current);
    assert_eq!(got.made.unwrap().origin, ProvenanceOriginKind::Regenerate);

    std::fs::write(dir.path().join("scripts/tally.js"), TALLY.replace("total * scale", "total * scale + 1")).unwrap();
    let err = call::<ProvenanceRegenerateResponse>(
        &app,
        "provenance_regenerate",
        json!({"params": {"path": "/out/total.txt"}}),
    )
    .unwrap_err();
    assert!(err.contains("changed since it made /out/total.txt") && err.contains("--use-current-script"), "{err}");
    let done: ProvenanceRegenerateResponse =
        call(&app, "provenance_regenerate", json!({"params": {"path": "/out/total.txt", "useCurrentScript": true}}))
            .unwrap();
    assert!(done.notes.iter().any(|n| n.contains("as it is now")), "{done:?}");

    let got: ProvenanceGetResponse = call(&app, "provenance_get", json!({"params": {"path": "/notes.txt"}})).unwrap();
    assert_eq!((got.standing, got.made.is_none()), (ProvenanceStanding::Unknown, true));
    let err = call::<ProvenanceGetResponse>(&app, "provenance_get", json!({"params": {"path": "/out/none.txt"}}))
        .unwrap_err();
    assert!(err.contains("there is no file at /out/none.txt"), "{err}");
}
