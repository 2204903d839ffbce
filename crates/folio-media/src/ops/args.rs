//! Reading a binding's arguments: positional paths and one options object, each value checked
//! into a sentence that names the option, what it must be, and what it was.

use std::time::Duration;

use serde_json::Value;

use crate::error::MediaError;
use crate::ops::DEFAULT_TIMEOUT_MS;

fn bad(msg: String) -> MediaError {
    MediaError::Invalid(msg)
}

/// Argument `i` as a tree path.
pub fn path(args: &[Value], i: usize, what: &str) -> Result<String, MediaError> {
    match args.get(i) {
        Some(Value::String(s)) if s.starts_with('/') => Ok(s.clone()),
        Some(Value::String(s)) => {
            Err(bad(format!("argument {} ({what}) must be an absolute path like /in/clip.mp4, got \"{s}\"", i + 1)))
        }
        other => Err(bad(format!(
            "argument {} ({what}) must be a path string, got {}",
            i + 1,
            other.map_or("nothing".to_string(), kind_of)
        ))),
    }
}

/// Argument `i` as a list of at least `min` tree paths.
pub fn paths(args: &[Value], i: usize, what: &str, min: usize) -> Result<Vec<String>, MediaError> {
    let Some(Value::Array(list)) = args.get(i) else {
        return Err(bad(format!("argument {} ({what}) must be an array of paths", i + 1)));
    };
    if list.len() < min {
        return Err(bad(format!("{what} needs at least {min} path(s), got {}", list.len())));
    }
    list.iter()
        .enumerate()
        .map(|(n, v)| match v {
            Value::String(s) if s.starts_with('/') => Ok(s.clone()),
            other => Err(bad(format!("{what}[{n}] must be an absolute path string, got {}", kind_of(other)))),
        })
        .collect()
}

fn kind_of(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("\"{s}\""),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The options object of a call (`{}` when absent).
pub struct Opts<'a> {
    v: Option<&'a serde_json::Map<String, Value>>,
}

impl<'a> Opts<'a> {
    /// Argument `i` as the options object; anything but an object or nothing is refused.
    pub fn at(args: &'a [Value], i: usize) -> Result<Opts<'a>, MediaError> {
        match args.get(i) {
            None | Some(Value::Null) => Ok(Opts { v: None }),
            Some(Value::Object(m)) => Ok(Opts { v: Some(m) }),
            Some(other) => {
                Err(bad(format!("argument {} (the options) must be an object, got {}", i + 1, kind_of(other))))
            }
        }
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.v.and_then(|m| m.get(key)).filter(|v| !v.is_null())
    }

    /// Refuses keys not in `known` (a typo would otherwise be ignored silently).
    pub fn only(&self, known: &[&str]) -> Result<(), MediaError> {
        if let Some(m) = self.v {
            for k in m.keys() {
                if !known.contains(&k.as_str()) && k != "timeoutMs" {
                    return Err(bad(format!(
                        "unknown option {k} — hint: the options are {}, timeoutMs",
                        known.join(", ")
                    )));
                }
            }
        }
        Ok(())
    }

    /// A number in `[min, max]`, or `default`.
    pub fn num(&self, key: &str, min: f64, max: f64, default: Option<f64>) -> Result<Option<f64>, MediaError> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Number(n)) => {
                let x = n.as_f64().unwrap_or(f64::NAN);
                if x.is_finite() && x >= min && x <= max {
                    Ok(Some(x))
                } else {
                    Err(bad(format!("{key} must be between {min} and {max}, got {n}")))
                }
            }
            Some(other) => Err(bad(format!("{key} must be a number, got {}", kind_of(other)))),
        }
    }

    /// An integer in `[min, max]`, or `default`.
    pub fn int(&self, key: &str, min: i64, max: i64, default: Option<i64>) -> Result<Option<i64>, MediaError> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Number(n)) => match n.as_i64() {
                Some(x) if x >= min && x <= max => Ok(Some(x)),
                Some(_) => Err(bad(format!("{key} must be an integer from {min} to {max}, got {n}"))),
                None => Err(bad(format!("{key} must be an integer from {min} to {max}, got {n}"))),
            },
            Some(other) => Err(bad(format!("{key} must be an integer, got {}", kind_of(other)))),
        }
    }

    /// A string, or `None`.
    pub fn string(&self, key: &str) -> Result<Option<&'a str>, MediaError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(bad(format!("{key} must be a string, got {}", kind_of(other)))),
        }
    }

    /// A boolean, or `default`.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, MediaError> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(bad(format!("{key} must be true or false, got {}", kind_of(other)))),
        }
    }

    /// `[width, height]`, each in `[min, max]`.
    pub fn size(&self, key: &str, min: u32, max: u32) -> Result<Option<(u32, u32)>, MediaError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        let pair = v.as_array().filter(|a| a.len() == 2).and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)));
        match pair {
            Some((w, h)) if (min as u64..=max as u64).contains(&w) && (min as u64..=max as u64).contains(&h) => {
                Ok(Some((w as u32, h as u32)))
            }
            _ => Err(bad(format!("{key} must be [width, height], whole numbers from {min} to {max}, got {v}"))),
        }
    }

    /// The call's own time limit (`timeoutMs`, default 120 000, at most an hour).
    pub fn timeout(&self) -> Result<Duration, MediaError> {
        let ms = self.int("timeoutMs", 1000, 3_600_000, Some(DEFAULT_TIMEOUT_MS as i64))?.unwrap_or(0);
        Ok(Duration::from_millis(ms as u64))
    }
}

/// Refuses an output whose extension is not in `allowed`.
pub fn out_ext(out: &str, allowed: &[&str], what: &str) -> Result<String, MediaError> {
    let ext = crate::stage::ext_of(out);
    if allowed.contains(&ext.as_str()) {
        Ok(ext)
    } else {
        Err(bad(format!(
            "{out}: {what} writes {}, so the output must end in one of them",
            allowed.iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(", ")
        )))
    }
}

/// `3.25` as ffmpeg reads a time.
pub fn secs(x: f64) -> String {
    format!("{x:.3}")
}
