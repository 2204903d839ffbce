//! Pictures: `thumbnail`, `frames`, `clip`, `concat`, `transcode`, `slideshow`, `contactSheet`.

use serde_json::{Value, json};

use crate::error::MediaError;
use crate::ops::args::{self, Opts, out_ext, secs};
use crate::ops::codecs::{AUDIO_OUT, EVEN, IMAGE_OUT, VIDEO_OUT, audio_codec_args, video_codec_args};
use crate::ops::{Call, Input};
use crate::probe::StreamKind;
use crate::progress::Weight;
use crate::stage::ext_of;

fn pixels(w: u32, h: u32) -> u64 {
    u64::from(w) * u64::from(h)
}

fn size_of(input: &Input) -> (u32, u32) {
    input.info.size().unwrap_or((1920, 1080))
}

/// `thumbnail(in, out, atSeconds = 1)`: one picture at a time (seeking to the keyframe before).
pub fn thumbnail(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the video")?;
    let out = args::path(a, 1, "the output image")?;
    let ext = out_ext(&out, IMAGE_OUT, "thumbnail")?;
    let at = match a.get(2) {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64().filter(|x| x.is_finite() && *x >= 0.0) {
            Some(x) => Some(x),
            None => return Err(MediaError::Invalid(format!("atSeconds must be 0 or more, got {n}"))),
        },
        Some(other) => return Err(MediaError::Invalid(format!("atSeconds must be a number of seconds, got {other}"))),
    };
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    input.require(StreamKind::Video, "thumbnails need pictures; for audio use env:media.waveform")?;
    let d = input.secs();
    let at = match at {
        Some(t) if d > 0.0 && t >= d => {
            return Err(MediaError::Invalid(format!(
                "atSeconds {t} is past the end of {path} ({d:.3} s long) — hint: pass a time from 0 to {:.2}",
                (d - 0.05).max(0.0)
            )));
        }
        Some(t) => t,
        None if d > 0.0 && d <= 1.0 => d / 2.0,
        None => 1.0_f64.min(d.max(0.0)),
    };
    let file = format!("out.{ext}");
    let argv = vec![
        "-ss".into(),
        secs(at),
        "-i".into(),
        input.file.clone(),
        "-frames:v".into(),
        "1".into(),
        "-q:v".into(),
        "2".into(),
        "-an".into(),
        file.clone(),
    ];
    let (w, h) = size_of(&input);
    let run = cx.exec(
        &stage,
        &path,
        "taking a picture from",
        1.0,
        Weight::Video { pixels: pixels(w, h) },
        Opts::at(a, 3)?.timeout()?,
        argv,
    )?;
    cx.save(&stage, &file, &out, &run.stderr)
}

/// `frames(in, dir, {fps = 1, limit = 200})`: PNGs `dir/frame-00001.png`… at `fps`.
pub fn frames(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the video")?;
    let dir = args::path(a, 1, "the output directory")?;
    let o = Opts::at(a, 2)?;
    o.only(&["fps", "limit"])?;
    let fps = o.num("fps", 0.001, 60.0, Some(1.0))?.unwrap_or(1.0);
    let limit = o.int("limit", 1, 1000, Some(200))?.unwrap_or(200);
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    input.require(StreamKind::Video, "frames need pictures")?;
    std::fs::create_dir(stage.path("frames")).map_err(MediaError::io("creating the frames directory"))?;
    let argv: Vec<String> = vec![
        "-i".into(),
        input.file.clone(),
        "-vf".into(),
        format!("fps={fps}"),
        "-frames:v".into(),
        limit.to_string(),
        "-an".into(),
        "frames/frame-%05d.png".into(),
    ];
    let (w, h) = size_of(&input);
    let span = input.secs().min(limit as f64 / fps);
    cx.exec(
        &stage,
        &path,
        "extracting frames from",
        span,
        Weight::Video { pixels: pixels(w, h) / 4 },
        o.timeout()?,
        argv,
    )?;
    let mut names: Vec<String> = std::fs::read_dir(stage.path("frames"))
        .map_err(MediaError::io("listing the frames"))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(MediaError::EmptyOutput {
            what: format!("frames of {path} at {fps} per second"),
            stderr: "no frame was produced".into(),
        });
    }
    let dir = dir.trim_end_matches('/');
    let mut written = Vec::new();
    for name in names {
        let bytes = std::fs::read(stage.path(&format!("frames/{name}"))).map_err(MediaError::io("reading a frame"))?;
        cx.budget_check()?;
        let target = format!("{dir}/{name}");
        cx.fs.write(&target, &bytes).map_err(MediaError::Tree)?;
        written.push(target);
    }
    Ok(json!(written))
}

fn start_end(o: &Opts<'_>, input: &Input) -> Result<(f64, f64), MediaError> {
    let d = input.secs();
    let start = o.num("start", 0.0, 1e7, Some(0.0))?.unwrap_or(0.0);
    let end = o.num("end", 0.0, 1e7, None)?;
    let end = match end {
        Some(e) => e,
        None if d > 0.0 => d,
        None => return Err(MediaError::Invalid("end is required (seconds) — hint: pass {start, end}".into())),
    };
    if end <= start {
        return Err(MediaError::Invalid(format!(
            "end ({end}) must be after start ({start}) — hint: pass {{start, end}} in seconds with end > start ≥ 0"
        )));
    }
    if d > 0.0 && start >= d {
        return Err(MediaError::Invalid(format!(
            "start ({start}) is at or past the end of {} ({d:.3} s long) — hint: start below {d:.3}",
            input.path
        )));
    }
    Ok((start, end.min(if d > 0.0 { d } else { end })))
}

/// `clip(in, out, {start, end})`: frame-accurate, re-encoded.
pub fn clip(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the media")?;
    let out = args::path(a, 1, "the output")?;
    let o = Opts::at(a, 2)?;
    o.only(&["start", "end", "crf"])?;
    let ext = out_ext(&out, &[VIDEO_OUT, AUDIO_OUT].concat(), "clip")?;
    let crf = o.int("crf", 0, 51, None)?;
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    let (start, end) = start_end(&o, &input)?;
    let file = format!("out.{ext}");
    let mut argv: Vec<String> =
        vec!["-i".into(), input.file.clone(), "-ss".into(), secs(start), "-to".into(), secs(end)];
    argv.extend(codecs_for(&ext, &input, crf)?);
    argv.push(file.clone());
    let weight = weight_for(&ext, &input);
    let run = cx.exec(&stage, &path, "clipping", end, weight, o.timeout()?, argv)?;
    cx.save(&stage, &file, &out, &run.stderr)
}

fn weight_for(ext: &str, input: &Input) -> Weight {
    if AUDIO_OUT.contains(&ext) || input.info.first(StreamKind::Video).is_none() {
        Weight::Light
    } else {
        let (w, h) = size_of(input);
        Weight::Video { pixels: pixels(w, h) }
    }
}

/// Codec arguments (and the even-size filter) for re-encoding `input` into `ext`.
fn codecs_for(ext: &str, input: &Input, crf: Option<i64>) -> Result<Vec<String>, MediaError> {
    let has_audio = input.info.first(StreamKind::Audio).is_some();
    if AUDIO_OUT.contains(&ext) {
        if !has_audio {
            input.require(StreamKind::Audio, "write a video container (.mp4, .webm) instead")?;
        }
        let mut v = vec!["-vn".to_string()];
        v.extend(audio_codec_args(ext, None)?);
        return Ok(v);
    }
    if input.info.first(StreamKind::Video).is_none() {
        return Err(MediaError::NoStream {
            path: input.path.clone(),
            kind: "video",
            hint: format!("write an audio file (.{}) instead", AUDIO_OUT.join(", .")),
        });
    }
    let mut v = Vec::new();
    if ext != "gif" {
        v.extend(["-vf".to_string(), EVEN.to_string()]);
    }
    v.extend(video_codec_args(ext, crf, has_audio));
    Ok(v)
}

/// The argv `transcode` runs for an input staged as `input` into `file` (the benchmark runs the
/// same command directly).
pub fn transcode_args(
    input: &str,
    file: &str,
    crf: Option<i64>,
    scale: Option<(u32, u32)>,
    fps: Option<f64>,
    has_audio: bool,
) -> Vec<String> {
    let ext = ext_of(file);
    let mut filters: Vec<String> = Vec::new();
    if let Some((w, h)) = scale {
        filters.push(format!("scale={w}:{h}"));
    }
    if let Some(f) = fps {
        filters.push(format!("fps={f}"));
    }
    if ext != "gif" {
        filters.push(EVEN.to_string());
    }
    let mut v = vec!["-i".to_string(), input.to_string()];
    if !filters.is_empty() {
        v.extend(["-vf".to_string(), filters.join(",")]);
    }
    v.extend(video_codec_args(&ext, crf, has_audio));
    v.push(file.to_string());
    v
}

/// `transcode(in, out, {crf, scale: [w, h], fps})`: the container follows the extension.
pub fn transcode(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the media")?;
    let out = args::path(a, 1, "the output")?;
    let o = Opts::at(a, 2)?;
    o.only(&["crf", "scale", "fps"])?;
    let ext = out_ext(&out, &[VIDEO_OUT, AUDIO_OUT].concat(), "transcode")?;
    let crf = o.int("crf", 0, if ext == "webm" { 63 } else { 51 }, None)?;
    let scale = o.size("scale", 2, 8192)?;
    let fps = o.num("fps", 1.0, 240.0, None)?;
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    let file = format!("out.{ext}");
    let argv = if AUDIO_OUT.contains(&ext.as_str()) {
        let mut v = vec!["-i".to_string(), input.file.clone()];
        v.extend(codecs_for(&ext, &input, crf)?);
        v.push(file.clone());
        v
    } else {
        input.require(StreamKind::Video, "transcode it to an audio file (.mp3, .m4a) or use extractAudio")?;
        transcode_args(&input.file, &file, crf, scale, fps, input.info.first(StreamKind::Audio).is_some())
    };
    let weight = match scale {
        Some((w, h)) if !AUDIO_OUT.contains(&ext.as_str()) => {
            Weight::Video { pixels: pixels(w, h).max(pixels(size_of(&input).0, size_of(&input).1) / 4) }
        }
        _ => weight_for(&ext, &input),
    };
    let run = cx.exec(&stage, &path, "transcoding", input.secs(), weight, o.timeout()?, argv)?;
    cx.save(&stage, &file, &out, &run.stderr)
}

/// `concat(inputs, out)`: the same codecs and sizes are joined by stream copy (the concat
/// demuxer); anything else is re-encoded to the first input's size and frame rate.
pub fn concat(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let paths = args::paths(a, 0, "inputs", 2)?;
    let out = args::path(a, 1, "the output")?;
    let o = Opts::at(a, 2)?;
    o.only(&["crf"])?;
    let ext = out_ext(&out, &[VIDEO_OUT, AUDIO_OUT].concat(), "concat")?;
    let crf = o.int("crf", 0, 51, None)?;
    let mut stage = cx.stage()?;
    let mut inputs = Vec::new();
    for p in &paths {
        inputs.push(cx.load(&mut stage, p, false)?);
    }
    let total: f64 = inputs.iter().map(Input::secs).sum();
    let file = format!("out.{ext}");
    let key = |i: &Input| {
        let v = i.info.first(StreamKind::Video).map(|v| (v.codec.clone(), v.width, v.height));
        let s = i.info.first(StreamKind::Audio).map(|s| (s.codec.clone(), s.sample_rate, s.channels));
        (v, s, ext_of(&i.path))
    };
    let first = key(&inputs[0]);
    let same = inputs.iter().all(|i| key(i) == first) && first.2 == ext;
    let timeout = o.timeout()?;
    let run = if same {
        let list: String = inputs.iter().map(|i| format!("file '{}'\n", i.file)).collect();
        std::fs::write(stage.path("list.txt"), list).map_err(MediaError::io("writing the concat list"))?;
        let argv = ["-f", "concat", "-safe", "0", "-i", "list.txt", "-c", "copy", &file].map(String::from).to_vec();
        cx.exec(&stage, &paths[0], "joining", total, Weight::Copy, timeout, argv)?
    } else {
        let video =
            inputs.iter().all(|i| i.info.first(StreamKind::Video).is_some()) && !AUDIO_OUT.contains(&ext.as_str());
        let any_audio = inputs.iter().any(|i| i.info.first(StreamKind::Audio).is_some());
        if !video && !AUDIO_OUT.contains(&ext.as_str()) {
            let missing =
                inputs.iter().find(|i| i.info.first(StreamKind::Video).is_none()).map_or("", |i| i.path.as_str());
            return Err(MediaError::NoStream {
                path: missing.to_string(),
                kind: "video",
                hint:
                    "every input of a video concat needs pictures; join audio files into an audio output (.m4a, .mp3)"
                        .into(),
            });
        }
        let (w, h) = inputs[0].info.size().map(|(w, h)| (w + w % 2, h + h % 2)).unwrap_or((1280, 720));
        let fps = inputs[0].info.first(StreamKind::Video).and_then(|v| v.fps).unwrap_or(25.0);
        let mut argv: Vec<String> = Vec::new();
        for i in &inputs {
            argv.extend(["-i".to_string(), i.file.clone()]);
        }
        let n = inputs.len();
        let mut graph = String::new();
        let mut pads = String::new();
        for (k, i) in inputs.iter().enumerate() {
            if video {
                graph.push_str(&format!(
                    "[{k}:v:0]scale={w}:{h}:force_original_aspect_ratio=decrease,pad={w}:{h}:-1:-1:color=black,setsar=1,fps={fps},format=yuv420p[v{k}];"
                ));
                pads.push_str(&format!("[v{k}]"));
            }
            if any_audio {
                if i.info.first(StreamKind::Audio).is_some() {
                    graph.push_str(&format!("[{k}:a:0]aresample=48000,aformat=channel_layouts=stereo[a{k}];"));
                } else {
                    graph.push_str(&format!(
                        "anullsrc=r=48000:cl=stereo,atrim=duration={}[a{k}];",
                        secs(i.secs().max(0.04))
                    ));
                }
                pads.push_str(&format!("[a{k}]"));
            }
        }
        let (vn, an) = (usize::from(video), usize::from(any_audio));
        graph.push_str(&format!("{pads}concat=n={n}:v={vn}:a={an}"));
        if video {
            graph.push_str("[v]");
        }
        if any_audio {
            graph.push_str("[a]");
        }
        argv.extend(["-filter_complex".to_string(), graph]);
        if video {
            argv.extend(["-map".to_string(), "[v]".to_string()]);
        }
        if any_audio {
            argv.extend(["-map".to_string(), "[a]".to_string()]);
        }
        if video {
            argv.extend(video_codec_args(&ext, crf, any_audio));
        } else {
            argv.extend(audio_codec_args(&ext, None)?);
        }
        argv.push(file.clone());
        let weight = if video { Weight::Video { pixels: pixels(w, h) } } else { Weight::Light };
        cx.exec(&stage, &paths[0], "re-encoding and joining", total, weight, timeout, argv)?
    };
    let mut v = cx.save(&stage, &file, &out, &run.stderr)?;
    v["copied"] = json!(same);
    Ok(v)
}

/// Most stills a slideshow of differently sized images takes (each is one ffmpeg input).
pub const MAX_MIXED_STILLS: usize = 300;

/// `slideshow(images, out, {frameMs = 1000, size})`: each still shown `frameMs`, 25 fps out (the
/// `fps` filter makes it constant in every container; webm's muxer would keep it variable).
/// Stills of one size go through the image sequence demuxer; stills of several sizes are each
/// their own input, fitted to the size (letterboxed) and concatenated, because a size change
/// inside one stream re-creates the filters and drops the frame they held.
pub fn slideshow(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let paths = args::paths(a, 0, "images", 1)?;
    let out = args::path(a, 1, "the output video")?;
    let o = Opts::at(a, 2)?;
    o.only(&["frameMs", "size"])?;
    let ext = out_ext(&out, VIDEO_OUT, "slideshow")?;
    let frame_ms = o.int("frameMs", 40, 600_000, Some(1000))?.unwrap_or(1000);
    let size = o.size("size", 16, 7680)?;
    if paths.len() > 10_000 {
        return Err(MediaError::Invalid(format!("a slideshow takes at most 10000 images, got {}", paths.len())));
    }
    let mut stage = cx.stage()?;
    let still_ext = crate::stage::safe_ext(&paths[0]);
    let mut sizes = Vec::new();
    let mut names = Vec::new();
    for (k, p) in paths.iter().enumerate() {
        let input = cx.load(&mut stage, p, false)?;
        input.require(StreamKind::Video, "slideshow takes images (PNG, JPEG, WebP)")?;
        sizes.push(input.info.size());
        let name = format!("still-{:05}{still_ext}", k + 1);
        std::fs::rename(stage.path(&input.file), stage.path(&name)).map_err(MediaError::io("staging the stills"))?;
        names.push(name);
    }
    let (w, h) = match size {
        Some(s) => s,
        None => sizes[0].map(|(w, h)| ((w / 2 * 2).max(2), (h / 2 * 2).max(2))).unwrap_or((1280, 720)),
    };
    let fit = format!(
        "scale={w}:{h}:force_original_aspect_ratio=decrease,pad={w}:{h}:-1:-1:color=black,setsar=1,fps=25,format=yuv420p"
    );
    let secs_total = paths.len() as f64 * frame_ms as f64 / 1000.0;
    let one_size = sizes.iter().all(|s| *s == sizes[0]);
    let mut argv: Vec<String> = Vec::new();
    if one_size {
        // The image demuxer gives the last still one output frame only: it is staged twice and
        // the output cut at n × frameMs, so every still shows for its whole time.
        let extra = format!("still-{:05}{still_ext}", paths.len() + 1);
        std::fs::copy(stage.path(&names[names.len() - 1]), stage.path(&extra))
            .map_err(MediaError::io("staging the stills"))?;
        argv.extend([
            "-framerate".into(),
            format!("1000/{frame_ms}"),
            "-i".into(),
            format!("still-%05d{still_ext}"),
            "-vf".into(),
            fit,
        ]);
    } else {
        if paths.len() > MAX_MIXED_STILLS {
            return Err(MediaError::Invalid(format!(
                "the images have different sizes, and a slideshow of mixed sizes takes at most {MAX_MIXED_STILLS} of them, got {} — hint: make them one size first (env:images), or split the slideshow and concat the parts",
                paths.len()
            )));
        }
        let t = secs(frame_ms as f64 / 1000.0);
        let mut graph = String::new();
        for (k, name) in names.iter().enumerate() {
            argv.extend([
                "-loop".into(),
                "1".into(),
                "-framerate".into(),
                "25".into(),
                "-t".into(),
                t.clone(),
                "-i".into(),
                name.clone(),
            ]);
            graph.push_str(&format!("[{k}:v]{fit}[v{k}];"));
        }
        let pads: String = (0..names.len()).map(|k| format!("[v{k}]")).collect();
        graph.push_str(&format!("{pads}concat=n={}:v=1:a=0[v]", names.len()));
        argv.extend(["-filter_complex".into(), graph, "-map".into(), "[v]".into()]);
    }
    argv.extend(video_codec_args(&ext, None, false));
    argv.extend(["-t".to_string(), secs(secs_total), file_name(&ext)]);
    let file = file_name(&ext);
    let run = cx.exec(
        &stage,
        &paths[0],
        "making a slideshow of",
        secs_total,
        Weight::Video { pixels: pixels(w, h) },
        o.timeout()?,
        argv,
    )?;
    cx.save(&stage, &file, &out, &run.stderr)
}

fn file_name(ext: &str) -> String {
    format!("out.{ext}")
}

/// `contactSheet(in, out, {count = 9, columns = 3, width = 320})`: `count` pictures spread
/// evenly over the video, tiled in one image.
pub fn contact_sheet(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the video")?;
    let out = args::path(a, 1, "the output image")?;
    let o = Opts::at(a, 2)?;
    o.only(&["count", "columns", "width"])?;
    let ext = out_ext(&out, IMAGE_OUT, "contactSheet")?;
    let count = o.int("count", 1, 100, Some(9))?.unwrap_or(9);
    let columns = o.int("columns", 1, 20, Some(3))?.unwrap_or(3).min(count);
    let width = o.int("width", 16, 1920, Some(320))?.unwrap_or(320);
    let rows = (count + columns - 1) / columns;
    if (width * columns) as u32 > crate::ops::MAX_SIDE {
        return Err(MediaError::Invalid(format!(
            "the sheet would be {} pixels wide (columns × width), over {} — hint: use fewer columns or a smaller width",
            width * columns,
            crate::ops::MAX_SIDE
        )));
    }
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    input.require(StreamKind::Video, "a contact sheet needs pictures; for audio use env:media.waveform")?;
    let d = input.secs();
    if d <= 0.0 {
        return Err(MediaError::Unreadable { path: path.clone(), detail: "its duration is unknown or zero".into() });
    }
    let file = format!("out.{ext}");
    let vf = format!("fps={count}/{},scale={width}:-2,tile={columns}x{rows}", secs(d));
    let argv: Vec<String> = vec![
        "-i".into(),
        input.file.clone(),
        "-vf".into(),
        vf,
        "-frames:v".into(),
        "1".into(),
        "-an".into(),
        file.clone(),
    ];
    let (w, h) = size_of(&input);
    let run = cx.exec(
        &stage,
        &path,
        "making a contact sheet of",
        d,
        Weight::Video { pixels: pixels(w, h) / 4 },
        o.timeout()?,
        argv,
    )?;
    let mut v = cx.save(&stage, &file, &out, &run.stderr)?;
    v["count"] = json!(count);
    v["columns"] = json!(columns);
    v["rows"] = json!(rows);
    Ok(v)
}
