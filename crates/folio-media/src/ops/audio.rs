//! Sound: `extractAudio`, `loudness`, `normalize` (two passes), `waveform`, `mixAudio`.

use serde_json::{Value, json};

use crate::error::MediaError;
use crate::ops::args::{self, Opts, out_ext, secs};
use crate::ops::codecs::{AUDIO_KEYS, AUDIO_OUT, AudioOptions, VIDEO_OUT, audio_codec_args};
use crate::ops::{Call, Input};
use crate::probe::StreamKind;
use crate::progress::Weight;
use crate::run::LogLevel;

fn no_audio_hint() -> &'static str {
    "check describe(path).streams: this file has no sound to work on"
}

/// `extractAudio(in, out, {codec, bitrate, sampleRate, channels})`: the sound alone.
pub fn extract_audio(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the media")?;
    let out = args::path(a, 1, "the output audio file")?;
    let o = Opts::at(a, 2)?;
    o.only(AUDIO_KEYS)?;
    let ext = out_ext(&out, AUDIO_OUT, "extractAudio")?;
    let opts = AudioOptions::read(&o)?;
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    input.require(StreamKind::Audio, no_audio_hint())?;
    let file = format!("out.{ext}");
    let mut argv =
        vec!["-i".to_string(), input.file.clone(), "-vn".into(), "-sn".into(), "-map".into(), "0:a:0".into()];
    argv.extend(audio_codec_args(&ext, Some(&opts))?);
    argv.push(file.clone());
    let weight = if opts.encoder == Some("copy") { Weight::Copy } else { Weight::Light };
    let run = cx.exec(&stage, &path, "extracting the audio of", input.secs(), weight, o.timeout()?, argv)?;
    cx.save(&stage, &file, &out, &run.stderr)
}

/// What `loudness` measured (EBU R128 through ffmpeg's loudnorm).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// Integrated loudness, LUFS.
    pub lufs: f64,
    /// True peak, dBTP.
    pub true_peak: f64,
    /// Loudness range, LU.
    pub range: f64,
    /// The gate threshold, LUFS.
    pub threshold: f64,
    /// loudnorm's target offset.
    pub offset: f64,
}

/// Reads the last `{…}` loudnorm printed on stderr.
pub fn parse_loudnorm(path: &str, stderr: &str) -> Result<Measured, MediaError> {
    let start = stderr.rfind('{');
    let end = stderr.rfind('}');
    let (Some(s), Some(e)) = (start, end) else {
        return Err(MediaError::Unreadable { path: path.into(), detail: "loudnorm printed no measurement".into() });
    };
    let json: Value = serde_json::from_str(&stderr[s..=e]).map_err(|err| MediaError::Unreadable {
        path: path.into(),
        detail: format!("loudnorm's measurement is not JSON: {err}"),
    })?;
    let field = |k: &str| -> Result<f64, MediaError> {
        let raw = json[k].as_str().unwrap_or("");
        if raw.contains("inf") {
            return Err(MediaError::Invalid(format!(
                "{path} is silent (its loudness measures {raw}) — hint: there is nothing to measure or normalise; check the audio track"
            )));
        }
        raw.trim()
            .parse::<f64>()
            .map_err(|_| MediaError::Unreadable { path: path.into(), detail: format!("loudnorm's {k} is {raw:?}") })
    };
    Ok(Measured {
        lufs: field("input_i")?,
        true_peak: field("input_tp")?,
        range: field("input_lra")?,
        threshold: field("input_thresh")?,
        offset: field("target_offset").unwrap_or(0.0),
    })
}

fn measure(
    cx: &Call<'_>,
    stage: &crate::stage::Stage,
    input: &Input,
    target: (f64, f64, f64),
    timeout: std::time::Duration,
) -> Result<Measured, MediaError> {
    let (i, tp, lra) = target;
    let argv = vec![
        "-i".to_string(),
        input.file.clone(),
        "-vn".into(),
        "-sn".into(),
        "-map".into(),
        "0:a:0".into(),
        "-af".into(),
        format!("loudnorm=I={i}:TP={tp}:LRA={lra}:print_format=json"),
        "-f".into(),
        "null".into(),
        "-".into(),
    ];
    let ffmpeg = cx.host.ffmpeg()?;
    let mut call = crate::run::FfmpegCall::new(cx.job(&input.path), argv.into_iter().map(Into::into).collect());
    call.cwd = Some(stage.dir().to_path_buf());
    call.log = LogLevel::Info;
    let spec = crate::progress::JobSpec {
        job: cx.job(&input.path),
        verb: "measuring the loudness of",
        media_secs: input.secs(),
        weight: Weight::Light,
        timeout,
    };
    let run = crate::progress::run_job(ffmpeg, cx.budget, &spec, &call)?;
    parse_loudnorm(&input.path, &run.stderr)
}

/// `loudness(in) → {path, lufs, truePeak, range, threshold}`.
pub fn loudness(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the media")?;
    let o = Opts::at(a, 1)?;
    o.only(&[])?;
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    input.require(StreamKind::Audio, no_audio_hint())?;
    let m = measure(cx, &stage, &input, (-14.0, -1.5, 11.0), o.timeout()?)?;
    Ok(json!({ "path": path, "lufs": m.lufs, "truePeak": m.true_peak, "range": m.range, "threshold": m.threshold }))
}

/// `normalize(in, out, {lufs = -14, truePeak = -1.5, range = 11, …AudioOptions})`: measure, then
/// loudnorm with the measurement (linear), pictures copied.
pub fn normalize(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the media")?;
    let out = args::path(a, 1, "the output")?;
    let o = Opts::at(a, 2)?;
    o.only(&[&["lufs", "truePeak", "range"][..], AUDIO_KEYS].concat())?;
    let ext = out_ext(&out, &[AUDIO_OUT, VIDEO_OUT].concat(), "normalize")?;
    if ext == "gif" {
        return Err(MediaError::Invalid(format!(
            "{out}: a GIF has no sound — hint: write .mp4, .mkv or an audio file"
        )));
    }
    let lufs = o.num("lufs", -70.0, -5.0, Some(-14.0))?.unwrap_or(-14.0);
    let tp = o.num("truePeak", -9.0, 0.0, Some(-1.5))?.unwrap_or(-1.5);
    let lra = o.num("range", 1.0, 50.0, Some(11.0))?.unwrap_or(11.0);
    let opts = AudioOptions::read(&o)?;
    if opts.encoder == Some("copy") {
        return Err(MediaError::Invalid(
            "normalize re-encodes the sound, so codec 'copy' is not possible — hint: name a codec, or leave it out"
                .into(),
        ));
    }
    let timeout = o.timeout()?;
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    input.require(StreamKind::Audio, no_audio_hint())?;
    let m = measure(cx, &stage, &input, (lufs, tp, lra), timeout)?;
    let rate = opts
        .sample_rate
        .or_else(|| input.info.first(StreamKind::Audio).and_then(|s| s.sample_rate).map(i64::from))
        .unwrap_or(48_000);
    let filter = format!(
        "loudnorm=I={lufs}:TP={tp}:LRA={lra}:measured_I={}:measured_TP={}:measured_LRA={}:measured_thresh={}:offset={}:linear=true:print_format=summary",
        m.lufs, m.true_peak, m.range, m.threshold, m.offset
    );
    let file = format!("out.{ext}");
    let keep_video = VIDEO_OUT.contains(&ext.as_str()) && input.info.first(StreamKind::Video).is_some();
    let mut argv = vec!["-i".to_string(), input.file.clone(), "-map".into(), "0:a:0".into()];
    if keep_video {
        argv.extend(["-map".to_string(), "0:v:0".into(), "-c:v".into(), "copy".into()]);
    } else {
        argv.push("-vn".into());
    }
    argv.extend(["-af".to_string(), filter]);
    let with_rate = AudioOptions { sample_rate: Some(rate), ..opts };
    argv.extend(audio_codec_args(&ext, Some(&with_rate))?);
    argv.push(file.clone());
    let run = cx.exec(&stage, &path, "normalising", input.secs(), Weight::Light, timeout, argv)?;
    let mut v = cx.save(&stage, &file, &out, &run.stderr)?;
    v["measured"] = json!({ "lufs": m.lufs, "truePeak": m.true_peak, "range": m.range, "threshold": m.threshold });
    Ok(v)
}

/// `waveform(in, out, {size = [1000, 200], colour = '#3366cc'})`: the sound drawn as a picture.
pub fn waveform(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the media")?;
    let out = args::path(a, 1, "the output image")?;
    let o = Opts::at(a, 2)?;
    o.only(&["size", "colour", "color"])?;
    let ext = out_ext(&out, &["png", "jpg", "jpeg"], "waveform")?;
    let (w, h) = o.size("size", 16, 8192)?.unwrap_or((1000, 200));
    let colour = o.string("colour")?.or(o.string("color")?).unwrap_or("#3366cc");
    let ok = colour.len() == 7 && colour.starts_with('#') && colour[1..].chars().all(|c| c.is_ascii_hexdigit());
    if !ok {
        return Err(MediaError::Invalid(format!("colour must be #rrggbb (like #3366cc), got \"{colour}\"")));
    }
    let mut stage = cx.stage()?;
    let input = cx.load(&mut stage, &path, false)?;
    input.require(StreamKind::Audio, no_audio_hint())?;
    let file = format!("out.{ext}");
    let argv = vec![
        "-i".to_string(),
        input.file.clone(),
        "-filter_complex".into(),
        format!("[0:a:0]showwavespic=s={w}x{h}:colors={colour}"),
        "-frames:v".into(),
        "1".into(),
        file.clone(),
    ];
    let run = cx.exec(&stage, &path, "drawing the waveform of", input.secs(), Weight::Light, o.timeout()?, argv)?;
    cx.save(&stage, &file, &out, &run.stderr)
}

/// `mixAudio(video, audio, out, {offset = 0, volume = 1, fadeIn = 0, fadeOut = 0, duck = false})`:
/// the audio track laid under the video from `offset` seconds, faded, and — with `duck` — made
/// quieter while the video's own sound plays. The pictures are copied; the result is as long as
/// the video.
pub fn mix_audio(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let vpath = args::path(a, 0, "the video")?;
    let apath = args::path(a, 1, "the audio track")?;
    let out = args::path(a, 2, "the output video")?;
    let o = Opts::at(a, 3)?;
    o.only(&["offset", "volume", "fadeIn", "fadeOut", "duck"])?;
    let ext = out_ext(&out, &["mp4", "m4v", "mov", "mkv", "webm"], "mixAudio")?;
    let offset = o.num("offset", 0.0, 86_400.0, Some(0.0))?.unwrap_or(0.0);
    let volume = o.num("volume", 0.0, 10.0, Some(1.0))?.unwrap_or(1.0);
    let fade_in = o.num("fadeIn", 0.0, 600.0, Some(0.0))?.unwrap_or(0.0);
    let fade_out = o.num("fadeOut", 0.0, 600.0, Some(0.0))?.unwrap_or(0.0);
    let duck = o.flag("duck", false)?;
    let mut stage = cx.stage()?;
    let video = cx.load(&mut stage, &vpath, false)?;
    video.require(StreamKind::Video, "mixAudio lays sound under pictures; to join sounds use concat")?;
    let track = cx.load(&mut stage, &apath, false)?;
    track.require(StreamKind::Audio, no_audio_hint())?;
    let vd = video.secs();
    if vd > 0.0 && offset >= vd {
        return Err(MediaError::Invalid(format!(
            "offset ({offset}) is at or past the end of {vpath} ({vd:.3} s long) — hint: start the track before {vd:.3}"
        )));
    }
    let ms = (offset * 1000.0).round() as u64;
    let end = (offset + track.secs()).min(if vd > 0.0 { vd } else { f64::MAX });
    let mut chain = format!("[1:a:0]aresample=48000,aformat=channel_layouts=stereo,volume={volume}");
    if fade_in > 0.0 {
        chain.push_str(&format!(",afade=t=in:st=0:d={}", secs(fade_in)));
    }
    if fade_out > 0.0 {
        let st = (end - offset - fade_out).max(0.0);
        chain.push_str(&format!(",afade=t=out:st={}:d={}", secs(st), secs(fade_out)));
    }
    if ms > 0 {
        chain.push_str(&format!(",adelay={ms}|{ms}"));
    }
    let own_audio = video.info.first(StreamKind::Audio).is_some();
    let graph = if own_audio {
        let base = "[0:a:0]aresample=48000,aformat=channel_layouts=stereo";
        if duck {
            format!(
                "{chain}[m];{base},asplit=2[o1][o2];[m][o2]sidechaincompress=threshold=0.03:ratio=8:attack=20:release=400[md];[o1][md]amix=inputs=2:duration=first:normalize=0[a]"
            )
        } else {
            format!("{chain}[m];{base}[o];[o][m]amix=inputs=2:duration=first:normalize=0[a]")
        }
    } else {
        format!("{chain},apad[a]")
    };
    let file = format!("out.{ext}");
    let mut argv = vec![
        "-i".to_string(),
        video.file,
        "-i".into(),
        track.file,
        "-filter_complex".into(),
        graph,
        "-map".into(),
        "0:v:0".into(),
        "-map".into(),
        "[a]".into(),
        "-c:v".into(),
        "copy".into(),
    ];
    if vd > 0.0 {
        argv.extend(["-t".to_string(), secs(vd)]);
    }
    argv.extend(audio_codec_args(&ext, None)?);
    argv.push(file.clone());
    let run = cx.exec(&stage, &vpath, "mixing audio under", vd, Weight::Light, o.timeout()?, argv)?;
    let mut v = cx.save(&stage, &file, &out, &run.stderr)?;
    v["ducked"] = json!(duck && own_audio);
    Ok(v)
}
