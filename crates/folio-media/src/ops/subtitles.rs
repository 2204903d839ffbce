//! Subtitles: `extractSubtitles` (a track to a file) and `burnSubtitles` (drawn into the
//! pictures). The subtitles filter reads a file named inside its graph, so it is given only the
//! stage's own safe name and runs with the stage as its working directory: no caller's path
//! ever enters a filter graph.
//!
//! Burnt subtitles are set in the bundled faces (folio-fonts' DejaVu Sans, written into the
//! stage's `fonts/` and named by `force_style`), not whatever fontconfig finds first, so a clip
//! comes out the same on every machine. libass says which font it chose (ffmpeg's info log);
//! a choice outside the bundle is refused by name rather than written.

use serde_json::Value;

use crate::error::MediaError;
use crate::ops::args::{self, Opts, out_ext};
use crate::ops::codecs::{EVEN, video_codec_args};
use crate::ops::{Call, Input};
use crate::probe::StreamKind;
use crate::progress::Weight;

/// Subtitle formats written and read.
pub const SUB_EXT: &[&str] = &["srt", "vtt", "ass", "ssa"];

fn track_of(input: &Input, track: Option<i64>) -> Result<u32, MediaError> {
    let subs: Vec<_> = input.info.of(StreamKind::Subtitle).collect();
    if subs.is_empty() {
        return Err(MediaError::NoStream {
            path: input.path.clone(),
            kind: "subtitle",
            hint: "pass {subtitles: '/path/to/file.srt'} to burn a separate file".into(),
        });
    }
    let n = track.unwrap_or(0);
    if n < 0 || n as usize >= subs.len() {
        let list: Vec<String> = subs
            .iter()
            .map(|s| {
                let mut t = format!("{}: {}", s.track, s.codec);
                if let Some(l) = &s.language {
                    t.push_str(&format!(" ({l})"));
                }
                t
            })
            .collect();
        return Err(MediaError::Invalid(format!(
            "{} has no subtitle track {n}; its tracks are {} — hint: pass {{track: 0}} … {{track: {}}}",
            input.path,
            list.join(", "),
            subs.len() - 1
        )));
    }
    Ok(n as u32)
}

/// `extractSubtitles(in, out, {track = 0})`: out must end in .srt, .vtt, .ass or .ssa.
pub fn extract(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the video")?;
    let out = args::path(a, 1, "the subtitle file")?;
    let o = Opts::at(a, 2)?;
    o.only(&["track"])?;
    let ext = out_ext(&out, SUB_EXT, "extractSubtitles")?;
    let track = o.int("track", 0, 99, None)?;
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, true)?;
    let n = track_of(&input, track)?;
    let file = format!("out.{ext}");
    let argv = vec!["-i".to_string(), input.file.clone(), "-map".into(), format!("0:s:{n}"), file.clone()];
    let run = cx.exec(&stage, &path, "extracting subtitles from", input.secs(), Weight::Copy, o.timeout()?, argv)?;
    let bytes = stage.output(&file, &format!("extractSubtitles → {out}"), &run.stderr)?;
    cx.budget_check()?;
    cx.fs.write(&out, &bytes).map_err(MediaError::Tree)?;
    Ok(serde_json::json!({ "path": out, "bytes": bytes.len(), "track": n }))
}

/// `burnSubtitles(in, out, {track, subtitles})`: a subtitle track of the video, or a separate
/// subtitle file, drawn into the pictures; the sound is copied.
pub fn burn(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the video")?;
    let out = args::path(a, 1, "the output video")?;
    let o = Opts::at(a, 2)?;
    o.only(&["track", "subtitles"])?;
    let ext = out_ext(&out, &["mp4", "m4v", "mov", "mkv", "webm"], "burnSubtitles")?;
    let track = o.int("track", 0, 99, None)?;
    let subtitles = o.string("subtitles")?.map(str::to_string);
    if track.is_some() && subtitles.is_some() {
        return Err(MediaError::Invalid("pass track or subtitles, not both — hint: track is a subtitle stream of the video, subtitles a separate .srt/.ass/.vtt file".into()));
    }
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    input.require(StreamKind::Video, "subtitles are burnt into pictures")?;
    let filter = match &subtitles {
        Some(s) => {
            if !s.starts_with('/') {
                return Err(MediaError::Invalid(format!(
                    "subtitles must be an absolute path like /in/talk.srt, got \"{s}\""
                )));
            }
            let sext = crate::stage::ext_of(s);
            if !SUB_EXT.contains(&sext.as_str()) {
                return Err(MediaError::Invalid(format!("{s}: subtitles must be a .srt, .vtt, .ass or .ssa file")));
            }
            let bytes = cx.fs.read(s).map_err(MediaError::Tree)?;
            let name = format!("subs.{sext}");
            std::fs::write(stage.path(&name), bytes).map_err(MediaError::io("staging the subtitles"))?;
            format!("subtitles={name}")
        }
        None => {
            let n = track_of(&input, track)?;
            format!("subtitles={}:si={n}", input.file)
        }
    };
    let filter = format!("{filter}:{}", bundled_fonts(&stage)?);
    let has_audio = input.info.first(StreamKind::Audio).is_some();
    let file = format!("out.{ext}");
    let mut argv = vec![
        "-i".to_string(),
        input.file.clone(),
        "-vf".into(),
        format!("{filter},{EVEN}"),
        "-map".into(),
        "0:v:0".into(),
    ];
    if has_audio {
        argv.extend(["-map".to_string(), "0:a:0".into()]);
    }
    let mut codecs = video_codec_args(&ext, None, false);
    codecs.retain(|c| c != "-an");
    argv.extend(codecs);
    if has_audio {
        argv.extend(["-c:a".to_string(), "copy".into()]);
    }
    argv.push(file.clone());
    let (w, h) = input.info.size().unwrap_or((1920, 1080));
    let run = cx.exec_at(
        &stage,
        &path,
        "burning subtitles into",
        input.secs(),
        Weight::Video { pixels: u64::from(w) * u64::from(h) },
        o.timeout()?,
        argv,
        crate::run::LogLevel::Info,
    )?;
    let fonts = chosen_fonts(&run.stderr);
    if let Some(host) = fonts.iter().find(|f| f.contains('/')) {
        return Err(MediaError::Invalid(format!(
            "burnSubtitles {path}: libass set part of the subtitles in {host}, a font of this machine, not the bundled DejaVu Sans, so the clip would differ from one machine to the next; nothing was written — hint: the bundled face lacks some of the text's characters (CJK, emoji); keep to Latin, Greek, Cyrillic, Hebrew and Arabic letters, or draw the text into the pictures another way"
        )));
    }
    let mut done = cx.save(&stage, &file, &out, &run.stderr)?;
    done["fonts"] = serde_json::json!(fonts);
    Ok(done)
}

/// The bundled faces written into the stage's `fonts/`, as the subtitles filter's options.
fn bundled_fonts(stage: &crate::stage::Stage) -> Result<String, MediaError> {
    std::fs::create_dir_all(stage.path("fonts")).map_err(MediaError::io("staging the bundled fonts"))?;
    for face in folio_fonts::Face::ALL {
        let name = format!("fonts/{face:?}.ttf");
        std::fs::write(stage.path(&name), face.bytes()).map_err(MediaError::io("staging the bundled fonts"))?;
    }
    Ok(format!("fontsdir=fonts:force_style='FontName={}'", folio_fonts::Face::Sans.family()))
}

/// The fonts libass chose (`fontselect: (DejaVu Sans, 400, 0) -> DejaVuSans, 0, DejaVuSans`):
/// a bundled face by its name, a host font by its path.
pub fn chosen_fonts(stderr: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in stderr.lines() {
        let Some((_, rest)) = line.split_once("fontselect:") else { continue };
        let Some((_, chosen)) = rest.split_once("-> ") else { continue };
        let font = chosen.split(", ").next().unwrap_or(chosen).trim().to_string();
        if !out.contains(&font) {
            out.push(font);
        }
    }
    out
}
