//! The fixture folder the tests open: two text files and a script that writes two files and
//! prints progress.

use std::path::Path;

/// The catalogue script: prints three progress lines, writes `/out/summary.md` and
/// `/out/scratch.txt`, and returns a short result.
pub const SUMMARISE: &str = r#"import * as fs from 'env:fs';

/** Summarises notes.txt into out/summary.md. */
export default async function () {
  const notes = await fs.readFile('/notes.txt', 'utf8');
  console.log('step 1/3: read notes');
  await fs.writeFile('/out/summary.md', '# Summary\n\n' + notes.toUpperCase());
  console.log('step 2/3: wrote summary');
  await fs.writeFile('/out/scratch.txt', 'temporary');
  console.log('step 3/3: done');
  return 'summarised ' + notes.length + ' characters';
}
"#;

/// Writes the fixture into `dir`.
pub fn write(dir: &Path) {
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("notes.txt"), "buy milk\ncall the bank\n").unwrap();
    std::fs::write(dir.join("report.md"), "# Q3 report\n\nRevenue grew.\n").unwrap();
    std::fs::write(dir.join("scripts/summarise.js"), SUMMARISE).unwrap();
}
