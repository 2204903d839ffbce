//! What the format modules make, the environment's own verbs understand: a workbook, a memo and
//! a deck (a title slide, then two) written by env:spreadsheets, env:documents and env:slides are described by the module
//! that reads them best, and `grep` with `documents: true` finds words inside them, naming the
//! sheet or slide of each match. No outside tool is needed for any of it.

use folio_env::Status;
use folio_host::{Host, Seams};
use folio_render::{HostPaths, Platform};
use serde_json::json;

const MAKE: &str = r#"/** Writes a workbook, a memo and a deck. */
import * as sheets from 'env:spreadsheets';
import { docx } from 'env:documents';
import * as slides from 'env:slides';
export default async function main() {
  await sheets.writeSheets('/out/q3.xlsx', {
    Revenue: [{ region: 'Nordics', amount: 120 }, { region: 'Iberia', amount: 80 }],
    Costs: [{ region: 'Nordics', amount: 45 }],
  });
  await docx.create('/out/memo.docx', { title: 'Memo', content: [{ heading: 'Q3' }, { text: 'Iberia grew fastest this quarter.' }] });
  await slides.create({ title: 'Q3 review', slides: [{ title: 'Overview', bullets: ['Revenue up'] }, { title: 'Regions', bullets: ['Iberia leads growth'] }] }, '/out/deck.pptx');
  return 'ok';
}
"#;

#[test]
fn files_the_modules_write_are_described_and_searched_by_the_verbs() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(tmp.path().join("state"));
    let host = Host::builder().state_dir(Some(tmp.path().join("state"))).paths(paths).build().unwrap();
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    let wrote = env.call("write_file", json!({"path": "/scripts/make.js", "content": MAKE}));
    assert_eq!(wrote.status, Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/make.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);

    // Each file is described by the module that reads its format, not by the zip it is.
    for (path, module, needle) in [
        ("/out/q3.xlsx", "env:spreadsheets", "Revenue"),
        ("/out/memo.docx", "env:documents", "\"words\""),
        ("/out/deck.pptx", "env:slides", "Regions"),
    ] {
        let described = env.call("describe", json!({"path": path}));
        assert_eq!(described.status, Status::Success, "{path}: {}", described.message);
        assert!(described.message.contains(module), "{path} should be described by {module}: {}", described.message);
        assert!(described.message.contains(needle), "{path}: {needle} missing from {}", described.message);
    }

    // grep reads inside them only when asked, and says where each match is.
    let plain = env.call("grep", json!({"pattern": "Iberia", "path": "/out"}));
    assert!(!plain.message.contains("sheet Revenue"), "{}", plain.message);
    let found = env.call("grep", json!({"pattern": "Iberia", "path": "/out", "documents": true}));
    assert_eq!(found.status, Status::Success, "{}", found.message);
    for expect in ["/out/q3.xlsx (sheet Revenue)", "/out/deck.pptx (slide 3)", "/out/memo.docx"] {
        assert!(found.message.contains(expect), "{expect} missing from:\n{}", found.message);
    }
    assert!(!found.message.contains("sheet Costs"), "Costs has no Iberia:\n{}", found.message);
}
