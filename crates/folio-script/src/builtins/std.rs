//! `env:std`: JSON, CSV, text and bytes helpers, written in JavaScript (`js/std.js`) over three
//! host functions — UTF-8 encoding and decoding, and `sleep`, which is bounded by the run.

use std::sync::Arc;
use std::time::Duration;

use crate::registry::{HostFn, HostValue, NativeFunction, NativeModule};

/// The `env:std` module definition.
pub(crate) fn module() -> NativeModule {
    let encode = HostFn::Sync(Arc::new(|args, _| match args.first() {
        Some(HostValue::Json(serde_json::Value::String(s))) => Ok(HostValue::Bytes(s.as_bytes().to_vec())),
        _ => Err("bytes.fromText needs a string".into()),
    }));
    let decode = HostFn::Sync(Arc::new(|args, _| match args.first() {
        Some(HostValue::Bytes(b)) => Ok(HostValue::Json(String::from_utf8_lossy(b).into_owned().into())),
        _ => Err("bytes.toText needs a Uint8Array".into()),
    }));
    let sleep = HostFn::Async(Arc::new(|args, cx| {
        Box::pin(async move {
            let ms = match args.first() {
                Some(HostValue::Json(v)) => v.as_f64().unwrap_or(0.0),
                _ => 0.0,
            };
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(ms as u64)) => Ok(HostValue::Undefined),
                () = cx.cancel.cancelled() => Err("the run ended while sleeping".into()),
            }
        })
    }));
    NativeModule {
        name: "std".into(),
        description: "Zero-dep battery: json.parse/stringify, csv.parse/rows/stringify, text utilities, base64/bytes bridging, sleep.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: include_str!("../js/std.d.ts").into(),
        docs: "Synchronous helpers (sleep is the one async function). Import what you need: import { csv, json } from 'env:std'.".into(),
        functions: vec![
            NativeFunction { name: "encodeUtf8".into(), call: encode },
            NativeFunction { name: "decodeUtf8".into(), call: decode },
            NativeFunction { name: "sleep".into(), call: sleep },
        ],
        js_api: Some(include_str!("../js/std.js").into()),
    }
}
