//! view_image: absent until vision is wired; images go straight to the seam, documents are
//! rendered by the module that claims them; every refusal names the fix.

use std::sync::{Arc, Mutex};

use folio_env::{EnvOptions, FileHandler, Magic, RenderedPage, Sight, Vision};
use folio_vfs::{Tree, VPath};
use serde_json::json;

use super::Expect::{Err, Ok};
use super::{check, env, env_with, p};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

/// Answers with what it was shown, or asks for the image to be attached.
struct Eyes {
    attach: bool,
    seen: Mutex<Vec<(usize, String, String)>>,
}

impl Vision for Eyes {
    fn look(&self, image: &[u8], media_type: &str, prompt: &str) -> Result<Sight, String> {
        self.seen.lock().unwrap().push((image.len(), media_type.to_owned(), prompt.to_owned()));
        if self.attach {
            Result::Ok(Sight::Attach)
        } else {
            Result::Ok(Sight::Answer("Yes: the total reads 30.".into()))
        }
    }
}

/// A fake PDF module: claims `%PDF-` and renders every page as the same tiny PNG.
struct FakePdf;

impl FileHandler for FakePdf {
    fn module(&self) -> &str {
        "render"
    }
    fn description(&self) -> &str {
        "renders PDFs"
    }
    fn extensions(&self) -> Vec<String> {
        vec![".pdf".into()]
    }
    fn magic(&self) -> Vec<Magic> {
        vec![Magic { offset: 0, bytes: b"%PDF-".to_vec() }]
    }
    fn describe(&self, _: &VPath, _: &[u8]) -> Result<serde_json::Value, String> {
        Result::Ok(json!({"pages": 2}))
    }
    fn render_page(&self, _: &VPath, _: &[u8], _: u32) -> Option<Result<RenderedPage, String>> {
        Some(Result::Ok(RenderedPage { png: PNG.to_vec(), page_count: 2 }))
    }
}

fn eyes(attach: bool) -> Arc<Eyes> {
    Arc::new(Eyes { attach, seen: Mutex::new(Vec::new()) })
}

#[test]
fn view_image_is_absent_until_vision_is_wired() {
    let plain = env();
    assert!(plain.tools().iter().all(|t| t.name != "view_image"));
    check(&plain, &[("view_image", json!({"path": "/a.png", "prompt": "x"}), Err(&["no verb named \"view_image\""]))]);
    let seeing = env_with(EnvOptions { vision: Some(eyes(false)), ..EnvOptions::default() });
    assert!(seeing.tools().iter().any(|t| t.name == "view_image"));
}

#[test]
fn images_are_looked_at_and_refusals_name_the_fix() {
    let vision = eyes(false);
    let env = env_with(EnvOptions { vision: Some(vision.clone()), ..EnvOptions::default() });
    env.tree().write(&p("/out/chart.png"), PNG).unwrap();
    env.tree().write(&p("/inbox/notes.txt"), b"hello").unwrap();
    check(
        &env,
        &[
            (
                "view_image",
                json!({"path": "/out/chart.png", "prompt": "Does the total read 30?"}),
                Ok(&["Yes: the total reads 30."]),
            ),
            (
                "view_image",
                json!({"path": "/out/chart.png", "prompt": "  "}),
                Err(&["a prompt is required", "Example:"]),
            ),
            (
                "view_image",
                json!({"path": "/out/chart.png", "prompt": "x", "page": 2}),
                Err(&["is a single image — it has no page 2"]),
            ),
            (
                "view_image",
                json!({"path": "/out/chart.png", "prompt": "x", "page": 0}),
                Err(&["page must be a whole number from 1"]),
            ),
            (
                "view_image",
                json!({"path": "/out/missing.png", "prompt": "x"}),
                Err(&["no such file or directory: /out/missing.png"]),
            ),
            (
                "view_image",
                json!({"path": "/out", "prompt": "x"}),
                Err(&["/out is a directory — view_image needs a file"]),
            ),
            (
                "view_image",
                json!({"path": "/inbox/notes.txt", "prompt": "x"}),
                Err(&["is not an image", "folio doctor"]),
            ),
        ],
    );
    let seen = vision.seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "refusals never reach the vision model");
    assert_eq!(seen[0], (PNG.len(), "image/png".to_owned(), "Does the total read 30?".to_owned()));
}

#[test]
fn documents_are_rendered_by_their_module_and_the_page_is_kept() {
    let env =
        env_with(EnvOptions { vision: Some(eyes(true)), handlers: vec![Arc::new(FakePdf)], ..EnvOptions::default() });
    env.tree().write(&p("/out/report.pdf"), b"%PDF-1.7 fake").unwrap();
    let r = env.call("view_image", json!({"path": "/out/report.pdf", "page": 2, "prompt": "Is the footer intact?"}));
    assert_eq!(r.status, folio_env::Status::Success, "{}", r.message);
    assert!(
        r.message.starts_with("rendered /out/report.pdf page 2 -> /tmp/.view/_out_report_pdf/page-2.png"),
        "{}",
        r.message
    );
    assert_eq!(r.data["attach"]["path"], "/tmp/.view/_out_report_pdf/page-2.png");
    assert_eq!(env.tree().read(&p("/tmp/.view/_out_report_pdf/page-2.png")).unwrap(), PNG);
    check(
        &env,
        &[(
            "view_image",
            json!({"path": "/out/report.pdf", "page": 3, "prompt": "x"}),
            Err(&["has 2 page(s) — there is no page 3"]),
        )],
    );
}
