//! Values across the script/host boundary, and host functions as script functions.
//!
//! Arguments arrive from the prelude's `bridge` shim tagged by kind (undefined, bytes as a binary
//! string, or a value to JSON-encode), so a host function only ever sees data. Results go back
//! as JSON parsed inside the script's context, or as a fresh `Uint8Array`: everything a script
//! receives is built in its own realm, and there is no path from it to a host object.

use rquickjs::function::Rest;
use rquickjs::{Ctx, Exception, Function, TypedArray, Value};

use crate::registry::{CallContext, HostFn, HostValue, NativeFunction};

/// The message every host call of a finished run gets, before anything is invoked.
pub(crate) const RUN_ENDED: &str = "this script's run has already ended (it was cancelled, timed out or finished), so the environment refused to apply its remaining changes";

fn to_host<'js>(ctx: &Ctx<'js>, kind: char, v: Value<'js>) -> rquickjs::Result<HostValue> {
    Ok(match kind {
        'u' => HostValue::Undefined,
        'b' => {
            let s: String = v.get()?;
            HostValue::Bytes(s.chars().map(|c| c as u32 as u8).collect())
        }
        _ => match ctx.json_stringify(v)? {
            None => HostValue::Undefined,
            Some(text) => HostValue::Json(
                serde_json::from_str(&text.to_string()?)
                    .map_err(|e| Exception::throw_type(ctx, &format!("argument is not data: {e}")))?,
            ),
        },
    })
}

pub(crate) fn to_js<'js>(ctx: &Ctx<'js>, v: HostValue) -> rquickjs::Result<Value<'js>> {
    match v {
        HostValue::Undefined => Ok(Value::new_undefined(ctx.clone())),
        HostValue::Json(j) => ctx.json_parse(j.to_string()),
        HostValue::Bytes(b) => Ok(TypedArray::<u8>::new(ctx.clone(), b)?.into_value()),
    }
}

fn tagged(module: &str, name: &str, msg: &str) -> String {
    if msg.starts_with("env:") { msg.to_owned() } else { format!("env:{module}.{name}: {msg}") }
}

/// A script function calling `f`, with errors tagged `env:<module>.<name>: …`.
pub(crate) fn native_function<'js>(
    ctx: &Ctx<'js>,
    module: &str,
    f: &NativeFunction,
    call: CallContext,
) -> rquickjs::Result<Function<'js>> {
    let module = module.to_owned();
    let name = f.name.clone();
    let imp = f.call.clone();
    let func = Function::new(ctx.clone(), move |ctx: Ctx<'js>, kinds: String, args: Rest<Value<'js>>| {
        if call.cancel.is_cancelled() {
            return Err(Exception::throw_message(&ctx, &tagged(&module, &name, RUN_ENDED)));
        }
        let mut host = Vec::with_capacity(args.0.len());
        for (kind, v) in kinds.chars().zip(args.0) {
            host.push(to_host(&ctx, kind, v)?);
        }
        match &imp {
            HostFn::Sync(f) => match f(host, &call) {
                Ok(v) => to_js(&ctx, v),
                Err(msg) => Err(Exception::throw_message(&ctx, &tagged(&module, &name, &msg))),
            },
            HostFn::Async(f) => {
                let fut = f(host, call.clone());
                let (promise, resolve, reject) = ctx.promise()?;
                let (module, name, inner) = (module.clone(), name.clone(), ctx.clone());
                ctx.spawn(async move {
                    let settled = match fut.await {
                        Ok(v) => to_js(&inner, v).and_then(|v| resolve.call::<_, ()>((v,))),
                        Err(msg) => Exception::from_message(inner.clone(), &tagged(&module, &name, &msg))
                            .and_then(|e| reject.call::<_, ()>((e,))),
                    };
                    // A failure here means the context is going away (out of memory, interrupted);
                    // the run's own error reports that.
                    drop(settled);
                });
                Ok(promise.into_value())
            }
        }
    })?;
    func.with_name(f.name.as_str())
}
