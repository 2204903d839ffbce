//! A long job's progress in the real window: a script from the catalogue renders a many-page PDF
//! and its run shows the job bar — the document, pages done of total — in place of console lines.

use crate::common;
use crate::harness::{App, enabled};

#[path = "../common/pdf.rs"]
mod pdf;

const RENDER: &str = r#"import { rasterize } from 'env:render';

/** Renders every page of deck.pdf to /tmp/pages. */
export default async function () {
  const r = await rasterize('/deck.pdf', '/tmp/pages', { dpi: 72 });
  return 'rendered ' + r.pages.length + ' pages';
}
"#;

fn fill(dir: &std::path::Path) {
    common::write(dir);
    std::fs::write(dir.join("deck.pdf"), pdf::many_pages(30)).unwrap();
    std::fs::write(dir.join("scripts/render.js"), RENDER).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_render_shows_its_job_bar_in_the_script_run() {
    if !enabled() {
        return;
    }
    let app = App::start(fill, &[]).await;
    app.wait_text("#scripts", "Renders every page").await;
    app.click(".script[data-path='/scripts/render.js'] button.run").await;
    app.wait_text("#script-form", "takes no arguments").await;
    app.click("#script-run").await;
    app.wait_text("#run-state", "Finished").await;
    app.wait_text("#run-result", "rendered 30 pages").await;
    app.wait_text(".job-bar", "30/30 pages").await;
    app.wait_for(".job-bar[data-done='30'][data-total='30'][data-job='/deck.pdf']").await;
    app.shot("progress-1-job-bar.png").await;
    app.close().await;
}
