//! What of the conversation a request carries: images at the size the provider uses, images
//! only while they are recent, and the compaction request as a request of its own.
//!
//! - **Image size.** A provider scales every image down before its model sees it, so sending
//!   more pixels only costs bytes, in this request and every later one. [`ImageLimit::of`] is
//!   each wire format's documented limit (Anthropic: 1568 px on the long edge; OpenAI's high
//!   detail: fit in 2048 × 2048, then 768 px on the short side), and [`fit`] downscales to it
//!   before the image joins the conversation.
//! - **Image age.** An image the model looked at [`KEEP_IMAGE_TURNS`] model turns ago is
//!   replaced in later requests by a line naming the path ([`age_images`]); the stored
//!   conversation keeps it, and the model can call `view_image` again.
//! - **Compaction.** The summary request is one user message of its own — the reason it was
//!   triggered, the transcript of the work so far, and the instructions ([`compaction_request`])
//!   — never an instruction appended to a turn of tool results.

use std::io::Cursor;

use image::{GenericImageView, ImageFormat, imageops::FilterType};

use crate::message::{Image, Message, Part, Role};
use crate::wire::WireFormat;

/// Model turns after which an image is replaced by a line naming its path.
pub const KEEP_IMAGE_TURNS: usize = 3;

/// The most pixels a provider's model uses of an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimit {
    /// The longest edge, in pixels.
    pub long_edge: u32,
    /// The shortest edge, in pixels, when the provider also bounds it.
    pub short_edge: Option<u32>,
}

impl ImageLimit {
    /// The documented limit of `format`'s provider.
    pub fn of(format: WireFormat) -> ImageLimit {
        match format {
            WireFormat::Anthropic => ImageLimit { long_edge: 1568, short_edge: None },
            WireFormat::OpenAi => ImageLimit { long_edge: 2048, short_edge: Some(768) },
        }
    }

    /// The size `(w, h)` becomes: scaled down (never up), aspect kept.
    pub fn fit(&self, w: u32, h: u32) -> (u32, u32) {
        let (long, short) = (w.max(h) as f64, w.min(h) as f64);
        let mut scale = (self.long_edge as f64 / long).min(1.0);
        if let Some(s) = self.short_edge {
            scale = scale.min(s as f64 / short);
        }
        if scale >= 1.0 {
            return (w, h);
        }
        (((w as f64 * scale).round() as u32).max(1), ((h as f64 * scale).round() as u32).max(1))
    }
}

/// `bytes` (an image of `media_type`) at most `limit`: the same bytes when they fit or cannot be
/// decoded (the provider then judges them), else downscaled and encoded as PNG (JPEG stays JPEG).
pub fn fit(bytes: Vec<u8>, media_type: &str, limit: ImageLimit) -> (Vec<u8>, String) {
    let Ok(decoded) = image::load_from_memory(&bytes) else { return (bytes, media_type.to_owned()) };
    let (w, h) = decoded.dimensions();
    let (nw, nh) = limit.fit(w, h);
    if (nw, nh) == (w, h) {
        return (bytes, media_type.to_owned());
    }
    let small = decoded.resize_exact(nw, nh, FilterType::Triangle);
    let (format, media) =
        if media_type == "image/jpeg" { (ImageFormat::Jpeg, "image/jpeg") } else { (ImageFormat::Png, "image/png") };
    let small = if format == ImageFormat::Jpeg { image::DynamicImage::ImageRgb8(small.to_rgb8()) } else { small };
    let mut out = Cursor::new(Vec::new());
    match small.write_to(&mut out, format) {
        Ok(()) => (out.into_inner(), media.to_owned()),
        Err(_) => (bytes, media_type.to_owned()),
    }
}

/// `messages` with every image older than `keep` model turns replaced by a line naming the
/// file it showed, so one look is not resent in every later request.
pub fn age_images(messages: &[Message], keep: usize) -> Vec<Message> {
    let mut later_turns = 0usize;
    let mut out: Vec<Message> = Vec::with_capacity(messages.len());
    for m in messages.iter().rev() {
        if m.role == Role::Assistant {
            later_turns += 1;
        }
        if later_turns < keep || m.role == Role::Assistant {
            out.push(m.clone());
            continue;
        }
        let mut m = m.clone();
        for part in &mut m.parts {
            match part {
                Part::ToolResult { content, images, .. } if !images.is_empty() => {
                    for image in images.drain(..) {
                        content.push_str(&format!("\n{}", dropped(image.source.as_deref(), later_turns)));
                    }
                }
                Part::Image { source, .. } => {
                    *part = Part::Text { text: dropped(source.as_deref(), later_turns) };
                }
                _ => {}
            }
        }
        out.push(m);
    }
    out.reverse();
    out
}

fn dropped(source: Option<&str>, turns: usize) -> String {
    match source {
        Some(path) => format!(
            "[the image of {path} was shown {turns} turns ago and is no longer attached — call view_image on {path} to look again]"
        ),
        None => format!("[an image shown {turns} turns ago is no longer attached]"),
    }
}

/// The one message of a compaction request: why it was triggered, the work so far as a
/// transcript, and `instructions`.
pub fn compaction_request(
    messages: &[Message],
    prompt_tokens: u64,
    window: u64,
    at: f64,
    instructions: &str,
) -> Message {
    let share = if window == 0 { 0.0 } else { prompt_tokens as f64 * 100.0 / window as f64 };
    let mut text = format!(
        "[Compaction] The last request's prompt was {prompt_tokens} tokens, {share:.0}% of this model's {window}-token context window (compaction starts at {:.0}%), so the work so far is summarised here and the conversation continues from the summary.\n\n[The work so far]\n",
        at * 100.0
    );
    text.push_str(&transcript(messages));
    text.push_str("\n[Instructions]\n");
    text.push_str(instructions);
    Message::user(text)
}

/// The conversation as plain text: who said what, each tool call and its result.
pub fn transcript(messages: &[Message]) -> String {
    let mut out = String::new();
    for m in messages {
        for part in &m.parts {
            match (m.role, part) {
                (Role::User, Part::Text { text }) => out.push_str(&format!("PERSON: {text}\n")),
                (Role::Assistant, Part::Text { text }) => out.push_str(&format!("YOU: {text}\n")),
                (_, Part::ToolUse { name, input, .. }) => out.push_str(&format!("YOU CALLED {name} {input}\n")),
                (_, Part::ToolResult { name, content, is_error, images, .. }) => {
                    let how = if *is_error { "FAILED" } else { "RESULT" };
                    out.push_str(&format!("{how} of {name}: {content}\n"));
                    for image in images {
                        out.push_str(&format!("[image of {}]\n", image.source.as_deref().unwrap_or("a file")));
                    }
                }
                (_, Part::Image { source, .. }) => {
                    out.push_str(&format!("[image of {}]\n", source.as_deref().unwrap_or("a file")))
                }
            }
        }
    }
    out
}

/// `image` as the provider of `format` uses it (see [`fit`]), its data re-encoded in base64.
pub fn fit_image(image: Image, format: WireFormat) -> Image {
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD;
    let Ok(bytes) = b64.decode(&image.data) else { return image };
    let (bytes, media_type) = fit(bytes, &image.media_type, ImageLimit::of(format));
    Image { media_type, data: b64.encode(&bytes), source: image.source }
}
