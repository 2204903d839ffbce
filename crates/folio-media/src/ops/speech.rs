//! `speak(text, out, {voice, rate, pitch})`: text to speech through espeak-ng when the host has
//! it. Without it the call is refused before anything runs, with the install line the doctor
//! prints. The text reaches espeak-ng as a staged file (`-f`), never as an argument, so a text
//! starting with `-` is read, not obeyed; a `.wav` output is espeak-ng's own, any other
//! extension goes through ffmpeg.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::error::{MediaError, last_lines};
use crate::ops::Call;
use crate::ops::args::{Opts, out_ext, path};
use crate::ops::codecs::{AUDIO_OUT, audio_codec_args};
use crate::progress::Weight;

/// The longest text one call speaks.
pub const MAX_CHARS: usize = 20_000;

/// `speak(text, out, {voice = 'en', rate = 175, pitch = 50})`.
pub fn speak(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    // No speech engine: refused before anything else, with the install line.
    let espeak = cx.host.espeak()?.clone();
    let text = match a.first() {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(Value::String(_)) => {
            return Err(MediaError::Invalid("text is empty — hint: pass the words to speak".into()));
        }
        _ => return Err(MediaError::Invalid("argument 1 (the text) must be a string".into())),
    };
    if text.chars().count() > MAX_CHARS {
        return Err(MediaError::Invalid(format!(
            "the text is {} characters, over the {MAX_CHARS} one call speaks — hint: speak it in parts and join them with concat",
            text.chars().count()
        )));
    }
    let out = path(a, 1, "the output audio file")?;
    let o = Opts::at(a, 2)?;
    o.only(&["voice", "rate", "pitch"])?;
    let ext = out_ext(&out, AUDIO_OUT, "speak")?;
    let voice = o.string("voice")?.unwrap_or("en");
    if voice.is_empty() || voice.len() > 40 || !voice.chars().all(|c| c.is_ascii_alphanumeric() || "-_+".contains(c)) {
        return Err(MediaError::Invalid(format!(
            "voice must be an espeak-ng voice name like en, en-us, de or fr (letters, digits, - and +), got \"{voice}\""
        )));
    }
    let base = voice.split('+').next().unwrap_or(voice).to_ascii_lowercase();
    let voices = cx.host.voices()?;
    if !voices.contains(&base) {
        let some: Vec<&str> =
            ["en", "en-us", "de", "fr", "es"].into_iter().filter(|v| voices.iter().any(|k| k == v)).collect();
        return Err(MediaError::Invalid(format!(
            "espeak-ng has no voice \"{voice}\" — hint: use one of {} ({} voices here; espeak-ng --voices lists them)",
            some.join(", "),
            voices.len()
        )));
    }
    let rate = o.int("rate", 80, 450, Some(175))?.unwrap_or(175);
    let pitch = o.int("pitch", 0, 99, Some(50))?.unwrap_or(50);
    let timeout = o.timeout()?;
    let words = text.split_whitespace().count().max(1) as f64;
    let speech_secs = words / (rate as f64 / 60.0);
    let mut job = cx.budget.start(folio_budget::Plan {
        kind: folio_budget::JobKind::Media,
        job: cx.job(&out),
        what: format!("speaking {words} words (about {speech_secs:.0} s of speech)"),
        total: speech_secs.ceil().max(1.0) as u64,
        cost: speech_secs * Weight::Light.factor(),
        smaller: "speak a shorter text per call".into(),
    })?;
    let stage = cx.stage()?;
    std::fs::write(stage.path("text.txt"), text.as_bytes()).map_err(MediaError::io("staging the text"))?;
    let mut cmd = Command::new(&espeak);
    cmd.args(["-v", voice, "-s", &rate.to_string(), "-p", &pitch.to_string(), "-w", "speech.wav", "-f", "text.txt"])
        .current_dir(stage.dir())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let limits = job.child_limits(timeout, crate::progress::MEMORY_MB);
    let mut child =
        folio_budget::Supervised::spawn(&mut cmd).map_err(MediaError::io(format!("starting {}", espeak.display())))?;
    let mut stderr = crate::run::StderrTail::collect(child.child_mut().stderr.take());
    let outcome = child.wait(&limits).map_err(MediaError::io("waiting for espeak-ng"))?;
    let tail = stderr.take();
    match outcome.end {
        folio_budget::ChildEnd::Exited(s) if s.success() => {}
        folio_budget::ChildEnd::Exited(s) => {
            return Err(MediaError::Failed {
                what: cx.job(&out),
                status: s.to_string(),
                stderr: last_lines(&tail, 4),
                hint: "check the voice name (espeak-ng --voices lists them)".into(),
            }
            .to_espeak());
        }
        folio_budget::ChildEnd::Deadline => return Err(job.out_of_time().into()),
        folio_budget::ChildEnd::Cancelled => {
            return Err(job.check().err().map_or(MediaError::Cancelled { what: cx.job(&out) }, MediaError::from));
        }
        end => return Err(crate::run::end_error(&cx.job(&out), end, &limits)),
    }
    let wav = stage.output("speech.wav", &format!("speak → {out}"), &tail)?;
    job.step(speech_secs.ceil() as u64)?;
    job.finish();
    if ext == "wav" {
        cx.budget_check()?;
        cx.fs.write(&out, &wav).map_err(MediaError::Tree)?;
        let info = crate::probe::probe(cx.host.ffmpeg()?, &stage.path("speech.wav")).ok();
        return Ok(super::summary::output(&out, wav.len() as u64, info.as_ref()));
    }
    let file = format!("out.{ext}");
    let mut argv = vec!["-i".to_string(), "speech.wav".into()];
    argv.extend(audio_codec_args(&ext, None)?);
    argv.push(file.clone());
    let run = cx.exec(&stage, &out, "encoding speech for", speech_secs, Weight::Light, timeout, argv)?;
    cx.save(&stage, &file, &out, &run.stderr)
}

trait EspeakError {
    fn to_espeak(self) -> MediaError;
}

impl EspeakError for MediaError {
    /// espeak-ng's failure reads as its own, not ffmpeg's.
    fn to_espeak(self) -> MediaError {
        match self {
            MediaError::Failed { what, status, stderr, hint } => {
                MediaError::Invalid(format!("{what}: espeak-ng failed ({status}): {stderr} — hint: {hint}"))
            }
            e => e,
        }
    }
}

/// The names `-v` accepts, from `espeak-ng --voices`: each voice's language, its file and the
/// file's last part, lowercased (an unknown name makes espeak-ng fall back to its default
/// silently, so it is checked here).
pub fn list_voices(espeak: &std::path::Path) -> Result<Vec<String>, MediaError> {
    let limits = folio_budget::ChildLimits::timeout(std::time::Duration::from_secs(10));
    let out = crate::run::run_ffprobe(espeak, "listing espeak-ng's voices", &["--voices".into()], &limits)?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut names: Vec<String> = Vec::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.len() < 5 {
            continue;
        }
        names.push(cols[1].to_ascii_lowercase());
        names.push(cols[4].to_ascii_lowercase());
        if let Some(last) = cols[4].rsplit('/').next() {
            names.push(last.to_ascii_lowercase());
        }
    }
    names.sort();
    names.dedup();
    Ok(names)
}
