//! The web platform's native half: what a script expects from a browser or Node global that is
//! best answered by a real implementation rather than JavaScript written for the sandbox.
//!
//! - **Text** (`TextDecoder`): the WHATWG Encoding Standard through `encoding_rs`, the crate
//!   browsers use — every label the standard lists, `fatal` (a malformed sequence throws a
//!   `TypeError`), `ignoreBOM` and `stream: true` (a decoder's state lives in a table keyed by the
//!   JavaScript decoder, dropped when a non-streaming call ends the stream). `TextEncoder` is
//!   always UTF-8 and needs nothing here but the layer's encoder.
//! - **Crypto**: `getRandomValues`/`randomUUID` draw from the operating system (`getrandom`);
//!   `subtle.digest` hashes SHA-1/256/384/512 natively.
//! - **URL**: parsing and every setter follow the WHATWG URL Standard through `url`'s `quirks`
//!   module (the same functions its web-platform tests run); `URLSearchParams` is JavaScript.
//! - **Timers**: `setTimeout` waits in real time (`sleep`), each wait cancellable (`wake`) so a
//!   cleared timer's wait ends at once instead of holding a task for its whole delay.
//!
//! The functions go to the Node layer (`js/node.js`) as one object; the layer shapes them into
//! the globals. Everything crosses as data: strings, numbers and fresh `Uint8Array`s.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use encoding_rs::{Decoder, DecoderResult, Encoding};
use rquickjs::function::{Async, Opt};
use rquickjs::{Ctx, Exception, Function, Object, TypedArray, Value};
use sha2::Digest;
use tokio::sync::Notify;

/// The bytes of a `Uint8Array`, copied out (empty when its buffer is detached).
#[allow(unsafe_code)]
pub(crate) fn copy_bytes(array: &TypedArray<'_, u8>) -> Vec<u8> {
    // SAFETY: `as_bytes` aliases the engine's memory; the slice is copied at once and no
    // JavaScript runs while it lives, so nothing can write to, detach or resize the buffer.
    unsafe { array.as_bytes() }.map(<[u8]>::to_vec).unwrap_or_default()
}

/// `TextDecoder` flags, as the layer packs them.
const FATAL: u32 = 1;
const IGNORE_BOM: u32 = 2;
const STREAM: u32 = 4;

/// Decoders in the middle of a stream, keyed by the number the layer gave their `TextDecoder`.
type Streams = Arc<Mutex<HashMap<u32, Decoder>>>;
/// The wake-ups of timers still waiting, keyed by timer id.
type Waits = Arc<Mutex<HashMap<u32, Arc<Notify>>>>;

/// The canonical (lower-case) name of the encoding `label` names, or `None` when the standard
/// has no such label or it names the replacement encoding (which `TextDecoder` refuses).
fn encoding_name(label: &str) -> Option<String> {
    Encoding::for_label_no_replacement(label.as_bytes()).map(|e| e.name().to_ascii_lowercase())
}

/// Why a decode failed: the message of the `TypeError` or `RangeError` the layer throws.
enum DecodeError {
    Malformed(&'static str),
    Unknown(String),
}

fn decode(streams: &Streams, name: &str, bytes: &[u8], flags: u32, key: u32) -> Result<String, DecodeError> {
    let encoding =
        Encoding::for_label_no_replacement(name.as_bytes()).ok_or_else(|| DecodeError::Unknown(name.into()))?;
    let mut table = streams.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut decoder = table.remove(&key).unwrap_or_else(|| {
        if flags & IGNORE_BOM != 0 {
            encoding.new_decoder_without_bom_handling()
        } else {
            encoding.new_decoder_with_bom_removal()
        }
    });
    let last = flags & STREAM == 0;
    let mut out = String::new();
    let decoded = if flags & FATAL != 0 {
        out.reserve(decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap_or(bytes.len() * 3 + 16));
        match decoder.decode_to_string_without_replacement(bytes, &mut out, last).0 {
            DecoderResult::Malformed(..) => Err(DecodeError::Malformed(encoding.name())),
            DecoderResult::InputEmpty | DecoderResult::OutputFull => Ok(()),
        }
    } else {
        out.reserve(decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(bytes.len() * 3 + 16));
        let _complete = decoder.decode_to_string(bytes, &mut out, last);
        Ok(())
    };
    // A fatal error ends the stream (the next call starts afresh), as does a non-streaming call.
    if decoded.is_ok() && !last {
        table.insert(key, decoder);
    }
    decoded.map(|()| out)
}

/// The SHA digest `algorithm` names (Web Crypto's names, case-insensitive), or `None`.
fn digest(algorithm: &str, bytes: &[u8]) -> Option<Vec<u8>> {
    Some(match algorithm.to_ascii_uppercase().as_str() {
        "SHA-1" => sha1::Sha1::digest(bytes).to_vec(),
        "SHA-256" => sha2::Sha256::digest(bytes).to_vec(),
        "SHA-384" => sha2::Sha384::digest(bytes).to_vec(),
        "SHA-512" => sha2::Sha512::digest(bytes).to_vec(),
        _ => return None,
    })
}

/// The URL components the layer caches after a parse or a setter.
const PARTS: &[&str] =
    &["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];

fn url_parts<'js>(ctx: &Ctx<'js>, url: &url::Url) -> rquickjs::Result<Object<'js>> {
    use url::quirks as q;
    let o = Object::new(ctx.clone())?;
    let values = [
        q::href(url).to_owned(),
        q::origin(url),
        q::protocol(url).to_owned(),
        q::username(url).to_owned(),
        q::password(url).to_owned(),
        q::host(url).to_owned(),
        q::hostname(url).to_owned(),
        q::port(url).to_owned(),
        q::pathname(url).to_owned(),
        q::search(url).to_owned(),
        q::hash(url).to_owned(),
    ];
    for (k, v) in PARTS.iter().zip(values) {
        o.set(*k, v)?;
    }
    Ok(o)
}

/// Applies the WHATWG setter for `part`; a value the standard ignores leaves the URL as it was.
fn url_set(url: &mut url::Url, part: &str, value: &str) {
    use url::quirks as q;
    // The setters' errors mean "ignored", exactly what the standard asks of a setter.
    let _ignored = match part {
        "protocol" => q::set_protocol(url, value),
        "username" => q::set_username(url, value),
        "password" => q::set_password(url, value),
        "host" => q::set_host(url, value),
        "hostname" => q::set_hostname(url, value),
        "port" => q::set_port(url, value),
        "pathname" => {
            q::set_pathname(url, value);
            Ok(())
        }
        "search" => {
            q::set_search(url, value);
            Ok(())
        }
        "hash" => {
            q::set_hash(url, value);
            Ok(())
        }
        _ => Ok(()),
    };
}

/// The native functions the Node layer's web globals are built on.
pub(crate) fn natives<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    let o = Object::new(ctx.clone())?;
    o.set("textLabel", Function::new(ctx.clone(), |label: String| encoding_name(&label))?)?;
    let streams = Streams::default();
    o.set(
        "textDecode",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, name: String, bytes: TypedArray<'js, u8>, flags: u32, key: u32| {
                match decode(&streams, &name, &copy_bytes(&bytes), flags, key) {
                    Ok(s) => Ok(s),
                    Err(DecodeError::Malformed(enc)) => Err(Exception::throw_type(
                        &ctx,
                        &format!(
                            "TextDecoder: the data is not valid {enc} (fatal: true) — decode without fatal to get U+FFFD for the bad bytes, or check the encoding"
                        ),
                    )),
                    Err(DecodeError::Unknown(n)) => {
                        Err(Exception::throw_range(&ctx, &format!("TextDecoder: unknown encoding {n}")))
                    }
                }
            },
        )?,
    )?;
    o.set(
        "randomBytes",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, n: u32| {
            let mut buf = vec![0u8; n as usize];
            getrandom::fill(&mut buf).map_err(|e| {
                Exception::throw_internal(&ctx, &format!("crypto: the operating system gave no random bytes: {e}"))
            })?;
            TypedArray::<u8>::new(ctx, buf)
        })?,
    )?;
    o.set(
        "digest",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, algorithm: String, bytes: TypedArray<'js, u8>| {
            match digest(&algorithm, &copy_bytes(&bytes)) {
                Some(d) => TypedArray::<u8>::new(ctx, d).map(|t| t.into_value()),
                None => Ok(Value::new_null(ctx)),
            }
        })?,
    )?;
    o.set(
        "urlParse",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, input: String, base: Opt<String>| -> rquickjs::Result<Value<'js>> {
                let parsed = match base.0 {
                    Some(b) => url::Url::parse(&b).and_then(|b| b.join(&input)),
                    None => url::Url::parse(&input),
                };
                match parsed {
                    Ok(u) => url_parts(&ctx, &u).map(|o| o.into_value()),
                    Err(_) => Ok(Value::new_null(ctx)),
                }
            },
        )?,
    )?;
    o.set(
        "urlSet",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, href: String, part: String, value: String| {
            let mut u = url::Url::parse(&href)
                .map_err(|e| Exception::throw_type(&ctx, &format!("URL: cannot re-parse {href}: {e}")))?;
            url_set(&mut u, &part, &value);
            url_parts(&ctx, &u)
        })?,
    )?;
    let waits = Waits::default();
    let wake_table = waits.clone();
    o.set(
        "sleep",
        Function::new(
            ctx.clone(),
            Async(move |id: u32, ms: f64| {
                let notify = Arc::new(Notify::new());
                waits.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(id, notify.clone());
                let waits = waits.clone();
                async move {
                    if tokio::runtime::Handle::try_current().is_err() {
                        waits.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&id);
                        return Err(rquickjs::Error::new_from_js_message(
                            "timer",
                            "timer",
                            "setTimeout: timers run only inside a script's run, not while the sandbox is being prepared",
                        ));
                    }
                    let ms = if ms.is_finite() && ms > 0.0 { ms.min(2_147_483_647.0) } else { 0.0 };
                    tokio::select! {
                        () = tokio::time::sleep(Duration::from_micros((ms * 1000.0) as u64)) => {}
                        () = notify.notified() => {}
                    }
                    waits.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&id);
                    rquickjs::Result::Ok(())
                }
            }),
        )?,
    )?;
    o.set(
        "wake",
        Function::new(ctx.clone(), move |id: u32| {
            if let Some(n) = wake_table.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&id) {
                n.notify_one();
            }
        })?,
    )?;
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_keeps_its_partial_sequence_and_a_plain_call_drops_it() {
        let streams = Streams::default();
        let euro = [0xe2, 0x82, 0xac];
        assert!(matches!(decode(&streams, "utf-8", &euro[..2], STREAM, 7).as_deref(), Ok("")));
        assert_eq!(streams.lock().map(|t| t.len()).unwrap_or(0), 1);
        assert!(matches!(decode(&streams, "utf-8", &euro[2..], 0, 7).as_deref(), Ok("€")));
        assert_eq!(streams.lock().map(|t| t.len()).unwrap_or(1), 0);
    }
}
