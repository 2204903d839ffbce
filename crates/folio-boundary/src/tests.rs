use super::*;

fn check_urls(mode: NetworkMode, cases: &[(&str, &str)]) {
    let boundary = Boundary::new(mode, NetworkMode::Open, &[]).unwrap();
    for (url, expect) in cases {
        let got = match boundary.check_url(Crossing::Provider("ollama"), url) {
            Ok(()) => "ok".to_owned(),
            Err(BoundaryError::NotLocal { .. }) => "not-local".to_owned(),
            Err(BoundaryError::BadUrl { .. }) => "bad-url".to_owned(),
            Err(e) => format!("{e}"),
        };
        assert_eq!(&got, expect, "{url}");
    }
}

#[test]
fn local_only_allows_loopback_literals_and_localhost_only() {
    check_urls(
        NetworkMode::LocalOnly,
        &[
            ("http://127.0.0.1:11434/v1", "ok"),
            ("http://127.8.9.10:1234", "ok"),
            ("http://localhost:1234/v1", "ok"),
            ("http://LOCALHOST.:1234/v1", "ok"),
            ("http://[::1]:8080/mcp", "ok"),
            ("http://[::ffff:127.0.0.1]:8080/", "ok"),
            ("https://api.anthropic.com", "not-local"),
            ("http://192.168.1.10:11434", "not-local"),
            ("http://0.0.0.0:11434", "not-local"),
            ("http://localhost.example.com", "not-local"),
            ("http://127.0.0.1.nip.io", "not-local"),
            ("http://[::ffff:10.0.0.1]/", "not-local"),
            ("not a url", "bad-url"),
            ("unix:/tmp/socket", "bad-url"),
        ],
    );
}

#[test]
fn open_mode_allows_everything() {
    check_urls(NetworkMode::Open, &[("https://api.openai.com/v1", "ok"), ("not a url", "ok")]);
}

#[test]
fn the_stricter_switch_wins_and_is_named() {
    let cases = [
        (NetworkMode::Open, NetworkMode::Open, None),
        (NetworkMode::LocalOnly, NetworkMode::Open, Some(ModeSource::Global)),
        (NetworkMode::Open, NetworkMode::LocalOnly, Some(ModeSource::Folder)),
        (NetworkMode::LocalOnly, NetworkMode::LocalOnly, Some(ModeSource::Folder)),
    ];
    for (global, folder, expect) in cases {
        let b = Boundary::new(global, folder, &[]).unwrap();
        assert_eq!(b.mode_source(), expect, "{global:?}/{folder:?}");
        assert_eq!(b.mode() == NetworkMode::LocalOnly, expect.is_some());
    }
    let b = Boundary::new(NetworkMode::LocalOnly, NetworkMode::Open, &[]).unwrap();
    let msg = b.check_url(Crossing::McpServer("github"), "https://api.githubcopilot.com/mcp/").unwrap_err().to_string();
    assert!(msg.starts_with("the MCP server github at https://api.githubcopilot.com/mcp/ is not on this machine, and the global local-only setting is on — nothing was sent. hint:"), "{msg}");
}

#[test]
fn never_send_names_the_covering_pattern() {
    let b = Boundary::new(
        NetworkMode::Open,
        NetworkMode::Open,
        &["/clients/**".to_owned(), "**/*.salary.csv".to_owned(), "secrets.txt".to_owned()],
    )
    .unwrap();
    let cases = [
        ("/clients/acme/q3.xlsx", Some("/clients/**")),
        ("/clients", Some("/clients/**")),
        ("/clients/", Some("/clients/**")),
        ("/clientsx/a", None),
        ("/hr/2026.salary.csv", Some("**/*.salary.csv")),
        ("/2026.salary.csv", Some("**/*.salary.csv")),
        ("/secrets.txt", Some("secrets.txt")),
        ("secrets.txt", Some("secrets.txt")),
        ("/sub/secrets.txt", None),
        ("/report.md", None),
    ];
    for (path, expect) in cases {
        assert_eq!(b.never_send(path), expect, "{path}");
    }
    let msg = b.check_read("/clients/acme/q3.xlsx").unwrap_err().to_string();
    assert!(msg.contains("/clients/acme/q3.xlsx is on this folder's never-send list (/clients/**)"), "{msg}");
    assert!(msg.contains("hint: process it in a script"), "{msg}");
    assert!(b.check_read("/report.md").is_ok());
}

#[test]
fn bad_patterns_are_refused_by_name() {
    for (pattern, detail) in [("", "is empty"), ("  ", "is empty"), ("..\\x", "uses \\"), ("/a/../b", "contains ..")] {
        let err = validate_pattern(pattern).unwrap_err().to_string();
        assert!(err.contains(detail), "{pattern:?}: {err}");
    }
    assert!(validate_pattern("/clients/**").is_ok());
}

#[test]
fn modes_persist_as_camel_case() {
    assert_eq!(serde_json::to_string(&NetworkMode::LocalOnly).unwrap(), "\"localOnly\"");
    assert_eq!(serde_json::from_str::<NetworkMode>("\"open\"").unwrap(), NetworkMode::Open);
}
