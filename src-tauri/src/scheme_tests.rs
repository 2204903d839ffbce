//! The `folio://` scheme: the Range table, and whole requests served from a real working
//! environment over a temporary folder.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::api::PreviewKind;
use tauri::http::Request;

#[test]
fn ranges() {
    use RangeReply::*;
    let cases: &[(Option<&str>, u64, RangeReply)] = &[
        (None, 100, Full),
        (Some("bytes=0-99"), 100, Partial { start: 0, end: 99 }),
        (Some("bytes=0-0"), 100, Partial { start: 0, end: 0 }),
        (Some("bytes=10-19"), 100, Partial { start: 10, end: 19 }),
        (Some("bytes=90-"), 100, Partial { start: 90, end: 99 }),
        (Some("bytes=90-500"), 100, Partial { start: 90, end: 99 }),
        (Some("bytes=-10"), 100, Partial { start: 90, end: 99 }),
        (Some("bytes=-500"), 100, Partial { start: 0, end: 99 }),
        (Some(" bytes= 5 - 6 "), 100, Partial { start: 5, end: 6 }),
        (Some("bytes=100-"), 100, Unsatisfiable),
        (Some("bytes=150-160"), 100, Unsatisfiable),
        (Some("bytes=-0"), 100, Unsatisfiable),
        (Some("bytes=0-"), 0, Unsatisfiable),
        (Some("bytes=-5"), 0, Unsatisfiable),
        // Ignored, as RFC 9110 allows: malformed, reversed, other units, several ranges.
        (Some("bytes=20-10"), 100, Full),
        (Some("bytes=a-b"), 100, Full),
        (Some("bytes=-"), 100, Full),
        (Some("bytes=5"), 100, Full),
        (Some("items=0-5"), 100, Full),
        (Some("bytes=0-1,5-6"), 100, Full),
    ];
    for (header, len, want) in cases {
        assert_eq!(resolve_range(*header, *len), *want, "{header:?} of {len}");
    }
}

#[test]
fn targets_from_uris() {
    let t = target("/%2Fout%2Fmy%20chart.png", Some("version=base&t=3")).unwrap();
    assert_eq!(
        t,
        Target { path: "/out/my chart.png".into(), version: VersionParam::Base, page: None, width: None, diff: None }
    );
    let t = target("/out/doc.pdf", Some("page=2&width=800")).unwrap();
    assert_eq!((t.path.as_str(), t.page, t.width), ("/out/doc.pdf", Some(2), Some(800)));
    assert_eq!(target("/", None).unwrap().path, "/");
    for (query, why) in [("version=old", "version=old is unknown"), ("page=x", "page=x is not a page number")] {
        let err = target("/a.pdf", Some(query)).unwrap_err().to_string();
        assert!(err.contains(why), "{err}");
    }
}

struct Fixture {
    session: Session,
    previews: Previews,
    folder: tempfile::TempDir,
    _state: tempfile::TempDir,
}

fn fixture() -> Fixture {
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("notes.txt"), "0123456789").unwrap();
    std::fs::write(folder.path().join("chart.png"), b"\x89PNG\r\n\x1a\nrest").unwrap();
    let session = Session::open(folder.path(), Some(state.path().to_path_buf())).unwrap();
    let previews = Previews::new(Some(state.path().to_path_buf()));
    Fixture { session, previews, folder, _state: state }
}

fn get(f: &Fixture, uri: &str, range: Option<&str>) -> Response<Vec<u8>> {
    let mut req = Request::builder().uri(uri);
    if let Some(range) = range {
        req = req.header("Range", range);
    }
    serve(Ok(&f.session), &f.previews, &req.body(Vec::new()).unwrap())
}

fn head(r: &Response<Vec<u8>>, name: &str) -> String {
    r.headers().get(name).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default()
}

#[test]
fn whole_files_ranges_and_media_types() {
    let f = fixture();
    let r = get(&f, "folio://localhost/%2Fnotes.txt", None);
    assert_eq!((r.status().as_u16(), r.body().as_slice()), (200, &b"0123456789"[..]));
    assert_eq!(head(&r, "content-type"), "text/plain; charset=utf-8");
    assert_eq!(head(&r, "accept-ranges"), "bytes");
    assert_eq!(head(&r, "access-control-allow-origin"), "*");
    let r = get(&f, "folio://localhost/notes.txt", Some("bytes=2-4"));
    assert_eq!((r.status().as_u16(), r.body().as_slice()), (206, &b"234"[..]));
    assert_eq!((head(&r, "content-range"), head(&r, "content-length")), ("bytes 2-4/10".into(), "3".into()));
    let r = get(&f, "folio://localhost/notes.txt", Some("bytes=10-"));
    assert_eq!((r.status().as_u16(), head(&r, "content-range")), (416, "bytes */10".into()));
    assert!(r.body().is_empty());
    let r = get(&f, "folio://localhost/chart.png", None);
    assert_eq!(head(&r, "content-type"), "image/png");
}

#[test]
fn pending_bytes_are_served_and_version_base_serves_the_folder() {
    let f = fixture();
    let reply =
        f.session.environment().call("write_file", serde_json::json!({"path": "/notes.txt", "content": "agent"}));
    assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
    let reply =
        f.session.environment().call("write_file", serde_json::json!({"path": "/out/new.txt", "content": "new"}));
    assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
    assert_eq!(get(&f, "folio://localhost/notes.txt", None).body().as_slice(), b"agent");
    assert_eq!(get(&f, "folio://localhost/notes.txt?version=base", None).body().as_slice(), b"0123456789");
    assert_eq!(std::fs::read(f.folder.path().join("notes.txt")).unwrap(), b"0123456789");
    let r = get(&f, "folio://localhost/out/new.txt?version=base", None);
    assert_eq!(r.status().as_u16(), 404);
    assert!(String::from_utf8_lossy(r.body()).contains("has no committed version"));
}

#[test]
fn refusals_say_why_with_a_status() {
    let f = fixture();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), f.folder.path().join("link.txt")).unwrap();
    let mut cases = vec![
        ("folio://localhost/.env/settings.json", 403, "private settings zone"),
        ("folio://localhost/%2F.env", 403, "private settings zone"),
        ("folio://localhost/missing.txt", 404, "/missing.txt does not exist"),
        ("folio://localhost/notes.txt?version=preview", 404, "has no webm preview yet"),
        ("folio://localhost/notes.txt?page=1", 400, "only PDFs and Office documents have pages"),
    ];
    if cfg!(unix) {
        cases.push(("folio://localhost/link.txt", 403, "resolves outside the folder"));
    }
    for (uri, status, why) in cases {
        let r = get(&f, uri, None);
        let body = String::from_utf8_lossy(r.body()).into_owned();
        assert_eq!(r.status().as_u16(), status, "{uri}: {body}");
        assert!(body.contains(why), "{uri}: {body}");
        assert_eq!(head(&r, "content-type"), "text/plain; charset=utf-8");
    }
    let no_folder = serve(
        Err(PreviewError::NoFolder),
        &f.previews,
        &Request::builder().uri("folio://localhost/notes.txt").body(Vec::new()).unwrap(),
    );
    assert_eq!(no_folder.status().as_u16(), 409);
}

#[test]
fn head_and_preflight_requests() {
    let f = fixture();
    let req = Request::builder().method("HEAD").uri("folio://localhost/notes.txt").body(Vec::new()).unwrap();
    let r = serve(Ok(&f.session), &f.previews, &req);
    assert_eq!((r.status().as_u16(), head(&r, "content-length"), r.body().len()), (200, "10".into(), 0));
    let req = Request::builder().method("OPTIONS").uri("folio://localhost/notes.txt").body(Vec::new()).unwrap();
    let r = serve(Ok(&f.session), &f.previews, &req);
    assert_eq!((r.status().as_u16(), head(&r, "access-control-allow-headers")), (204, "Range".into()));
}

/// Range and HEAD requests, answered from `stat` and a read of the range only, give the same
/// statuses, headers and bodies as the whole read: pending and zone files, past-the-end and
/// malformed ranges, and every refusal (`/.env`, missing, outside the folder, too large).
#[test]
fn ranged_and_head_requests_read_only_what_they_send() {
    let f = fixture();
    let env = f.session.environment();
    let reply = env.call("write_file", serde_json::json!({"path": "/out/pending.txt", "content": "abcdefghij"}));
    assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
    let reply = env.call("write_file", serde_json::json!({"path": "/tmp/scratch.txt", "content": "ABCDEFGHIJ"}));
    assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
    std::fs::File::create(f.folder.path().join("huge.mp4")).unwrap().set_len(crate::preview::READ_CAP + 1).unwrap();
    // (method, uri, range, "status content-range content-length content-type | body")
    let cases: &[(&str, &str, Option<&str>, &str)] = &[
        ("GET", "/out/pending.txt", Some("bytes=3-5"), "206 bytes 3-5/10 3 text/plain; charset=utf-8 | def"),
        ("GET", "/out/pending.txt", Some("bytes=-2"), "206 bytes 8-9/10 2 text/plain; charset=utf-8 | ij"),
        ("GET", "/tmp/scratch.txt", Some("bytes=8-"), "206 bytes 8-9/10 2 text/plain; charset=utf-8 | IJ"),
        ("GET", "/notes.txt", Some("bytes=0-0"), "206 bytes 0-0/10 1 text/plain; charset=utf-8 | 0"),
        ("GET", "/chart.png", Some("bytes=8-"), "206 bytes 8-11/12 4 image/png | rest"),
        ("GET", "/notes.txt", Some("bytes=20-"), "416 bytes */10  text/plain; charset=utf-8 | "),
        ("GET", "/notes.txt", Some("bytes=x-y"), "200  10 text/plain; charset=utf-8 | 0123456789"),
        ("HEAD", "/notes.txt", Some("bytes=2-4"), "206 bytes 2-4/10 3 text/plain; charset=utf-8 | "),
        ("HEAD", "/out/pending.txt", None, "200  10 text/plain; charset=utf-8 | "),
        ("HEAD", "/chart.png", None, "200  12 image/png | "),
        ("GET", "/.env/settings.json", Some("bytes=0-1"), "403"),
        ("HEAD", "/.env/orientation.md", None, "403"),
        ("GET", "/missing.txt", Some("bytes=0-1"), "404"),
        ("HEAD", "/out", None, "500"),
        ("GET", "/huge.mp4", Some("bytes=0-1"), "413"),
        ("HEAD", "/huge.mp4", None, "413"),
    ];
    for (method, uri, range, want) in cases {
        let mut req = Request::builder().method(*method).uri(format!("folio://localhost{uri}"));
        if let Some(range) = range {
            req = req.header("Range", *range);
        }
        let r = serve(Ok(&f.session), &f.previews, &req.body(Vec::new()).unwrap());
        let status = r.status().as_u16();
        let got = if status >= 400 && status != 416 {
            assert_eq!(head(&r, "content-type"), "text/plain; charset=utf-8", "{method} {uri}");
            status.to_string()
        } else {
            let body = String::from_utf8_lossy(r.body());
            let (cr, cl, ct) = (head(&r, "content-range"), head(&r, "content-length"), head(&r, "content-type"));
            format!("{status} {cr} {cl} {ct} | {body}")
        };
        assert_eq!(got, *want, "{method} {uri} {range:?}");
    }
}

#[allow(dead_code, clippy::too_many_arguments)]
#[path = "../../crates/folio-render/tests/suite/pdfgen.rs"]
mod pdfgen;

#[test]
fn pdf_pages_render_on_request_and_are_cached() {
    let f = fixture();
    let pages: Vec<pdfgen::Page> = (0..3)
        .map(|i| pdfgen::Page::new(300.0, 200.0, &pdfgen::rect(0.2 * i as f32, 0.4, 0.6, 10.0, 10.0, 100.0, 50.0)))
        .collect();
    std::fs::write(f.folder.path().join("deck.pdf"), pdfgen::pdf(&pages, "Deck")).unwrap();
    let info = f.previews.pages(&f.session, "/deck.pdf").unwrap();
    assert_eq!((info.page_count, info.page_size_pt), (3, Some([300.0, 200.0])));
    let r = get(&f, "folio://localhost/deck.pdf?page=2&width=600", None);
    assert_eq!(
        (r.status().as_u16(), head(&r, "content-type")),
        (200, "image/png".into()),
        "{}",
        String::from_utf8_lossy(r.body())
    );
    let png = r.body().clone();
    assert!(png.starts_with(b"\x89PNG"));
    // The PNG's IHDR: width then height, big-endian, at bytes 16..24.
    let (w, h) =
        (u32::from_be_bytes(png[16..20].try_into().unwrap()), u32::from_be_bytes(png[20..24].try_into().unwrap()));
    assert_eq!((w, h), (600, 400));
    let cached = std::fs::read_dir(f.session.environment().overlay().unwrap().state_dir().join("previews/pages"))
        .unwrap()
        .count();
    assert_eq!(cached, 1);
    assert_eq!(get(&f, "folio://localhost/deck.pdf?page=2&width=600", None).body(), &png);
    let r = get(&f, "folio://localhost/deck.pdf?page=4", None);
    assert_eq!(r.status().as_u16(), 500);
    assert!(String::from_utf8_lossy(r.body()).contains('4'), "{}", String::from_utf8_lossy(r.body()));
    // A rewritten document is read again: its cached pages are not served for the new content.
    let wide: Vec<pdfgen::Page> = (0..2)
        .map(|_| pdfgen::Page::new(400.0, 100.0, &pdfgen::rect(0.1, 0.4, 0.6, 10.0, 10.0, 100.0, 50.0)))
        .collect();
    std::fs::write(f.folder.path().join("deck.pdf"), pdfgen::pdf(&wide, "Wide")).unwrap();
    let png = get(&f, "folio://localhost/deck.pdf?page=2&width=600", None).body().clone();
    assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 150, "the new page's height");
}

/// Real ffmpeg (the tests' machine has it; the e2e checks the same path in the window).
#[test]
fn an_unplayable_video_is_probed_transcoded_once_and_served_as_webm() {
    let f = fixture();
    let status = std::process::Command::new("ffmpeg")
        .args([
            "-hide_banner",
            "-loglevel",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            "testsrc=duration=2:size=160x120:rate=25",
        ])
        .args(["-c:v", "mpeg4"])
        .arg(f.folder.path().join("old.avi"))
        .status()
        .expect("ffmpeg is needed for this test: sudo apt-get install ffmpeg");
    assert!(status.success());
    let info = f.previews.info(&f.session, "/old.avi").unwrap();
    let media = info.media.unwrap();
    assert_eq!(
        (info.kind, media.container.as_str(), media.video_codec.as_deref()),
        (PreviewKind::Video, "avi", Some("mpeg4"))
    );
    assert_eq!((media.mime, media.probed_by.as_str(), media.can_transcode), (None, "ffprobe", true));
    assert!((media.duration_s.unwrap() - 2.0).abs() < 0.1);
    let seen = std::sync::Mutex::new(Vec::new());
    let made = f.previews.transcode(&f.session, "/old.avi", &|p| seen.lock().unwrap().push(p.fraction)).unwrap();
    assert!(!made.cached && made.size > 0 && made.mime.starts_with("video/webm"));
    assert!(!seen.lock().unwrap().is_empty(), "progress was reported");
    let again = f.previews.transcode(&f.session, "/old.avi", &|_| {}).unwrap();
    assert!(again.cached);
    let r = get(&f, "folio://localhost/old.avi?version=preview", Some("bytes=0-3"));
    assert_eq!((r.status().as_u16(), head(&r, "content-type")), (206, "video/webm".into()));
    assert_eq!(r.body().as_slice(), b"\x1a\x45\xdf\xa3");
}

#[test]
fn a_missing_ffmpeg_is_named_with_its_fix() {
    let mut f = fixture();
    f.previews.tools.ffmpeg = Err("ffmpeg is not installed (not found on PATH)".into());
    std::fs::write(f.folder.path().join("x.avi"), b"RIFF\0\0\0\0AVI LIST").unwrap();
    let info = f.previews.info(&f.session, "/x.avi").unwrap();
    let media = info.media.unwrap();
    assert!(!media.can_transcode);
    assert_eq!(
        media.transcode_fix.unwrap(),
        format!("ffmpeg is not installed (not found on PATH) — {}", crate::preview::transcode::ffmpeg_fix())
    );
    let err = f.previews.transcode(&f.session, "/x.avi", &|_| {}).unwrap_err().to_string();
    assert!(err.starts_with("/x.avi cannot be converted for this webview: ffmpeg is not installed"), "{err}");
}

#[test]
fn tables_from_csv() {
    let f = fixture();
    std::fs::write(f.folder.path().join("t.csv"), "a;b\n1;2\n3;4\n").unwrap();
    let params = crate::api::PreviewTableParams { path: "/t.csv".into(), sheet: None, limit: Some(2) };
    let t = crate::preview::commands::table_response(&f.session, params).unwrap();
    assert_eq!(
        (t.rows, t.total_rows, t.truncated),
        (vec![vec!["a".to_string(), "b".into()], vec!["1".into(), "2".into()]], 3, true)
    );
}

/// Converts `file` (in `dir`) with LibreOffice to `ext`, with a profile of its own.
fn soffice_convert(dir: &std::path::Path, file: &str, ext: &str) {
    let profile = dir.join("lo-profile");
    let status = std::process::Command::new("soffice")
        .arg(format!("-env:UserInstallation=file://{}", profile.display()))
        .args(["--headless", "--convert-to", ext, "--outdir"])
        .arg(dir)
        .arg(dir.join(file))
        .stdout(std::process::Stdio::null())
        .status()
        .expect("LibreOffice is needed for this test: scripts/install.sh installs it");
    assert!(status.success(), "soffice could not convert {file} to {ext}");
}

/// Real LibreOffice: a workbook it wrote reads as a table (calamine), and a document it wrote
/// previews as pages (converted back to PDF once, cached).
#[test]
fn workbooks_are_tables_and_office_documents_have_pages() {
    let f = fixture();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("sales.csv"), "region,units\nNorth,12\nSouth,7\n").unwrap();
    std::fs::write(work.path().join("memo.txt"), "Quarterly memo\n\nRevenue grew.\n").unwrap();
    soffice_convert(work.path(), "sales.csv", "xlsx");
    soffice_convert(work.path(), "memo.txt", "docx");
    std::fs::copy(work.path().join("sales.xlsx"), f.folder.path().join("sales.xlsx")).unwrap();
    std::fs::copy(work.path().join("memo.docx"), f.folder.path().join("memo.docx")).unwrap();

    let params = crate::api::PreviewTableParams { path: "/sales.xlsx".into(), sheet: None, limit: None };
    let t = crate::preview::commands::table_response(&f.session, params).unwrap();
    assert_eq!(t.sheets.len(), 1);
    assert_eq!(t.rows, vec![vec!["region", "units"], vec!["North", "12"], vec!["South", "7"]]);
    let params = crate::api::PreviewTableParams { path: "/sales.xlsx".into(), sheet: Some("Nope".into()), limit: None };
    let err = crate::preview::commands::table_response(&f.session, params).unwrap_err().to_string();
    assert!(err.contains("it has no sheet named \"Nope\"; its sheets are"), "{err}");

    assert_eq!(f.previews.info(&f.session, "/memo.docx").unwrap().kind, PreviewKind::Office);
    let pages = f.previews.pages(&f.session, "/memo.docx").unwrap();
    assert_eq!(pages.page_count, 1);
    let r = get(&f, "folio://localhost/memo.docx?page=1&width=400", None);
    assert_eq!(r.status().as_u16(), 200, "{}", String::from_utf8_lossy(r.body()));
    assert!(r.body().starts_with(b"\x89PNG"));
}

#[test]
fn a_file_too_large_to_read_gets_a_card_without_being_read() {
    let f = fixture();
    let big = std::fs::File::create(f.folder.path().join("huge.mp4")).unwrap();
    // Sparse: the size is real, no disk is used.
    big.set_len(crate::preview::READ_CAP + 1).unwrap();
    let info = f.previews.info(&f.session, "/huge.mp4").unwrap();
    assert_eq!((info.kind, info.media_type.as_str(), info.media.is_none()), (PreviewKind::Binary, "video/mp4", true));
    let note = info.note.unwrap();
    assert!(note.starts_with("/huge.mp4 is 512 MB, more than the 512 MB a preview reads"), "{note}");
    let r = get(&f, "folio://localhost/huge.mp4", None);
    assert_eq!(r.status().as_u16(), 413);
    assert!(String::from_utf8_lossy(r.body()).contains("open it with its own application"));
}

/// The hot path of a document preview: the same cached page asked for again and again (the pane
/// re-renders, the person scrolls back). Prints the figure; run with
/// `FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop --lib bench_cached_pages -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn bench_cached_pages() {
    let f = fixture();
    let pages: Vec<pdfgen::Page> = (0..40)
        .map(|i| pdfgen::Page::new(300.0, 200.0, &pdfgen::rect(0.02 * i as f32, 0.4, 0.6, 10.0, 10.0, 100.0, 50.0)))
        .collect();
    let mut pdf = pdfgen::pdf(&pages, "Deck");
    // A realistic size: 8 MB of scanned pages, as trailing bytes PDFium ignores.
    pdf.extend(std::iter::repeat_n(b'\n', 8 << 20));
    std::fs::write(f.folder.path().join("deck.pdf"), &pdf).unwrap();
    let uri = "folio://localhost/deck.pdf?page=7&width=600";
    assert_eq!(get(&f, uri, None).status().as_u16(), 200, "the first request renders and caches");
    let started = std::time::Instant::now();
    for _ in 0..50 {
        assert_eq!(get(&f, uri, None).status().as_u16(), 200);
    }
    let per = started.elapsed().as_secs_f64() * 1000.0 / 50.0;
    println!("50 cached page requests on a 40-page {} MB PDF: {per:.2} ms each", pdf.len() >> 20);
}

/// The hot path of media playback: Range requests of 64 KB on a large file. Prints the figure;
/// run with `FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop --lib bench_ranges -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn bench_ranges() {
    let f = fixture();
    std::fs::write(f.folder.path().join("big.bin"), vec![7u8; 200 << 20]).unwrap();
    let started = std::time::Instant::now();
    for i in 0..100u64 {
        let start = i * (2 << 20);
        let range = format!("bytes={start}-{}", start + (64 << 10) - 1);
        let r = get(&f, "folio://localhost/big.bin", Some(&range));
        assert_eq!((r.status().as_u16(), r.body().len()), (206, 64 << 10));
    }
    let per = started.elapsed().as_secs_f64() * 1000.0 / 100.0;
    println!("100 Range requests of 64 KB on a 200 MB file: {per:.3} ms each");
}

/// An SVG is served drawn as a PNG for every request (whole, ranged, the committed version), so
/// the webview never parses it and its script never runs; a broken one answers why.
#[test]
fn an_svg_is_served_as_a_png_never_as_svg() {
    let f = fixture();
    let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="50" height="20"><script>alert(1)</script><rect width="50" height="20" fill="#f00" onload="alert(2)"/></svg>"##;
    std::fs::write(f.folder.path().join("logo.svg"), svg).unwrap();
    std::fs::write(f.folder.path().join("broken.svg"), b"Lorem ipsum, not XML").unwrap();
    assert_eq!(f.previews.info(&f.session, "/logo.svg").unwrap().kind, PreviewKind::Image);
    for (uri, range) in [
        ("folio://localhost/logo.svg", None),
        ("folio://localhost/logo.svg?version=base", None),
        ("folio://localhost/logo.svg", Some("bytes=0-15")),
    ] {
        let r = get(&f, uri, range);
        assert_eq!(head(&r, "content-type"), "image/png", "{uri} {range:?}");
        assert!(r.body().starts_with(b"\x89PNG"), "{uri} {range:?}");
        assert!(!r.body().windows(7).any(|w| w == b"<script"), "{uri}");
    }
    let png = get(&f, "folio://localhost/logo.svg", None).body().clone();
    let (w, h) =
        (u32::from_be_bytes(png[16..20].try_into().unwrap()), u32::from_be_bytes(png[20..24].try_into().unwrap()));
    assert_eq!((w, h), (100, 40), "drawn at twice its own size");
    let r = get(&f, "folio://localhost/broken.svg", None);
    assert_eq!(r.status().as_u16(), 500);
    assert!(String::from_utf8_lossy(r.body()).contains("not a readable SVG"), "{}", String::from_utf8_lossy(r.body()));
}
