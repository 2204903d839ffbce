//! `view_image`: the agent looks at an image, or at one page of a document rendered to an image,
//! with a specific question. Present only when the host wires a [`crate::seams::Vision`].
//!
//! Raster images (PNG, JPEG, GIF, WebP, recognised by their bytes) go to the vision seam as they
//! are; other images (a TIFF, an SVG) are rendered like documents, since a vision model takes
//! only those four. Anything else is rendered by the registered module that claims it (magic bytes first,
//! then extension) and offers `render_page`; the page is kept at `/tmp/.view/<path>/page-<n>.png`
//! so the agent can refer to it again. The seam either answers in words (a separate vision model)
//! or asks for the image to travel back with the result (a main model that can see).

use folio_vfs::{Kind, Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::seams::Sight;

/// The media types a vision model takes as they are; any other image is rendered to PNG first.
const VISION_TYPES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Tool description of `view_image`.
pub const VIEW_DOC: &str = "Look at an image, or at one page of a PDF or document rendered to an image, and answer a specific question about it. Ask what you expect to see (\"does the total on page 2 read 30?\", \"is any text cut off at the right edge?\") rather than \"describe this\". Check your own output this way before presenting it.";

/// Arguments of `view_image`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewArgs {
    /// The image or document.
    pub path: String,
    /// The question: what to check, stated so it can be answered yes or no or with a figure.
    pub prompt: String,
    /// For documents, the page to look at (1-based, default 1).
    pub page: Option<u32>,
}

/// `view_image`.
pub fn view_image(env: &Environment, args: ViewArgs) -> Result<Reply> {
    let prompt = args.prompt.trim();
    if prompt.is_empty() {
        return Err(EnvError::args(
            "view_image",
            "a prompt is required — say what to check, so the answer can be right or wrong. Example: { path: \"/out/report.pdf\", page: 2, prompt: \"Does the table end above the footer, with no row cut off?\" }",
        ));
    }
    let path = VPath::parse(&args.path)?;
    let page = args.page.unwrap_or(1);
    if page == 0 {
        return Err(EnvError::args(
            "view_image",
            "page must be a whole number from 1, got 0 — pages are counted from 1",
        ));
    }
    let tree = env.tree();
    match tree.stat(&path)? {
        None => return Err(VfsError::NoSuchEntry(path).into()),
        Some(s) if s.kind == Kind::Dir => {
            return Err(EnvError::refused(format!(
                "{path} is a directory — view_image needs a file; ls it to pick one"
            )));
        }
        Some(_) => {}
    }
    let bytes = tree.read(&path)?;
    let raster = crate::media::sniff(&bytes).filter(|m| VISION_TYPES.contains(m));
    let (image, media_type, shown, rendered) = match raster {
        Some(media_type) => {
            if page != 1 {
                return Err(EnvError::refused(format!(
                    "{path} is a single image — it has no page {page}; leave page out to look at it"
                )));
            }
            (bytes, media_type, path.clone(), None)
        }
        None => {
            let head: Vec<u8> = bytes.iter().take(64).copied().collect();
            let claimants = crate::seams::claimants(&env.opts.handlers, &path, &head);
            let Some(first) = claimants.first() else {
                return Err(EnvError::refused(format!(
                    "{path} is not an image, and no registered module claims its format, so it cannot be rendered to look at — convert it to PNG in a script first, or run `folio doctor` to see which renderers this host has"
                )));
            };
            let first_module = first.module().to_owned();
            let Some((module, outcome)) =
                claimants.iter().find_map(|h| h.render_page(&path, &bytes, page).map(|r| (h.module().to_owned(), r)))
            else {
                return Err(EnvError::refused(format!(
                    "{path} is opened by env:{first_module}, which does not render pages — convert it to PNG in a script first"
                )));
            };
            let rendered = match outcome {
                Err(reason) => {
                    return Err(EnvError::Host { what: format!("env:{module} rendering {path} page {page}"), reason });
                }
                Ok(r) => r,
            };
            if page > rendered.page_count {
                return Err(EnvError::refused(format!(
                    "{path} has {} page(s) — there is no page {page}",
                    rendered.page_count
                )));
            }
            let safe: String = path.as_str().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
            let target = VPath::parse(&format!("/tmp/.view/{safe}/page-{page}.png"))?;
            env.gateway.write(&target, &rendered.png, crate::gateway::WriteMode::Replace, None)?;
            (rendered.png, "image/png", target, Some(rendered.page_count))
        }
    };
    let Some(vision) = &env.opts.vision else {
        return Err(EnvError::refused("view_image is not available in this environment — no vision is configured"));
    };
    let prefix = match rendered {
        Some(count) => format!("rendered {path} page {page} -> {shown} (page {page} of {count})\n\n"),
        None => String::new(),
    };
    match vision.look(&image, media_type, prompt) {
        Ok(Sight::Answer(answer)) => Ok(Reply {
            text: format!("{prefix}{answer}"),
            data: json!({"image": shown, "media_type": media_type, "answer": answer}),
        }),
        Ok(Sight::Attach) => Ok(Reply {
            text: format!("{prefix}The image of {shown} is attached: look at it and answer your question: {prompt}"),
            data: json!({"attach": {"path": shown, "media_type": media_type}}),
        }),
        Err(reason) => Err(EnvError::Host { what: format!("looking at {shown}"), reason }),
    }
}
