//! An Outlook message in a folder opened through the host: `describe` names env:email with the
//! sender and subject, `grep` with `documents: true` finds words of its body, and a script's
//! `extract` writes its attachments under the folder, as pending edits of the overlay.

use folio_env::Status;
use folio_host::{Host, Seams};
use folio_render::{HostPaths, Platform};
use serde_json::json;

const EXTRACT: &str = r#"/** Extracts the message's attachments. */
import { extract } from 'env:email';
export default async function main() {
  const x = await extract('/inbox/mail.msg');
  return x.attachments.map(a => a.path);
}
"#;

#[test]
fn an_outlook_message_is_described_searched_and_extracted_through_the_host() {
    let root = std::env::var("FOLIO_CORPUS").unwrap_or_else(|_| "/work/shared/corpus".into());
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::copy(format!("{root}/documents/outlook-email-with-pdf-attachment.msg"), folder.join("inbox/mail.msg"))
        .unwrap();
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(tmp.path().join("state"));
    let host = Host::builder().state_dir(Some(tmp.path().join("state"))).paths(paths).build().unwrap();
    let env = host.open_folder(&folder, Seams::default()).unwrap();

    let described = env.call("describe", json!({"path": "/inbox/mail.msg"}));
    assert_eq!(described.status, Status::Success, "{}", described.message);
    for needle in ["env:email", "Nick Booth <nick.booth@pof.com.au>", "test email", "smbprn.00009008.KdcPjl.pdf"] {
        assert!(described.message.contains(needle), "{needle} missing from {}", described.message);
    }
    let found = env.call("grep", json!({"pattern": "test email", "path": "/inbox", "documents": true}));
    assert!(found.message.contains("/inbox/mail.msg"), "{}", found.message);
    // ls names the sender and subject beside the module.
    let listed = env.call("ls", json!({"path": "/inbox"}));
    assert!(
        listed.message.contains("mail.msg")
            && listed.message.contains("from Nick Booth <nick.booth@pof.com.au>: \"test email\""),
        "{}",
        listed.message
    );
    assert!(listed.message.contains("open with env:email"), "{}", listed.message);

    let wrote = env.call("write_file", json!({"path": "/scripts/x.js", "content": EXTRACT}));
    assert_eq!(wrote.status, Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/x.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    let paths: Vec<&str> = report.result.as_array().unwrap().iter().filter_map(|p| p.as_str()).collect();
    assert!(paths.contains(&"/inbox/mail.attachments/smbprn.00009008.KdcPjl.pdf"), "{paths:?}");
    assert!(paths.contains(&"/inbox/mail.attachments/Test Attachment.eml"), "{paths:?}");
    // Pending in the overlay: the person's folder is untouched until they commit.
    assert!(!folder.join("inbox/mail.attachments").exists());
}

const EML: &str = "From: Ada Lovelace <ada@example.org>\r\nTo: Charles Babbage <cb@example.org>\r\nSubject: =?UTF-8?Q?Engine_notes_=E2=80=94_draft?=\r\nDate: Mon, 7 Jul 2025 09:30:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe difference engine tabulates polynomials.\r\nSee you Thursday.\r\n";

#[test]
fn an_eml_body_is_found_by_grep_with_documents_and_ls_and_describe_name_sender_and_subject() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("note.eml"), EML).unwrap();
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(tmp.path().join("state"));
    let host = Host::builder().state_dir(Some(tmp.path().join("state"))).paths(paths).build().unwrap();
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    // The body's words are found only when documents are searched as documents: the raw .eml is
    // text too, so both find it; the decoded subject is found only through env:email.
    let found = env.call("grep", json!({"pattern": "tabulates polynomials", "documents": true}));
    assert!(found.message.contains("/note.eml:"), "{}", found.message);
    let subject = env.call("grep", json!({"pattern": "Engine notes — draft", "documents": true}));
    assert!(subject.message.contains("/note.eml:"), "{}", subject.message);
    let raw = env.call("grep", json!({"pattern": "Engine notes — draft"}));
    assert!(raw.message.starts_with("no matches"), "{}", raw.message);
    let listed = env.call("ls", json!({}));
    assert!(
        listed.message.contains("from Ada Lovelace <ada@example.org>: \"Engine notes — draft\""),
        "{}",
        listed.message
    );
    let d = env.call("describe", json!({"path": "/note.eml"}));
    for needle in ["env:email", "Ada Lovelace <ada@example.org>", "Engine notes — draft", "Charles Babbage"] {
        assert!(d.message.contains(needle), "{needle} missing from {}", d.message);
    }
}
