//! Host functions whose work blocks (a file to parse, a child to supervise): the shape every
//! table-driven module (`env:spreadsheets`, `env:documents`, `env:archives`, `env:media`) shares,
//! written once.
//!
//! The binding becomes an async host function. Its JSON arguments are taken as data (bytes are
//! refused with the words the module gives), a writing binding is refused during write-time
//! validation, and the work runs on tokio's blocking pool while the run counts it
//! ([`crate::registry::Work`]), so the run never returns while the work still touches the tree. A
//! run cancelled meanwhile gets "the run was cancelled" rather than a result nobody waits for.

use std::sync::Arc;

use serde_json::Value;

use crate::ScriptFs;
use crate::registry::{CallContext, HostFn, HostFuture, HostValue, NativeFunction};

/// What a blocking binding receives on its worker thread.
pub struct BlockingCall {
    /// The script's arguments (`undefined` as `null`).
    pub args: Vec<Value>,
    /// The run's file system (the environment's gateway; read-only during validation).
    pub fs: Arc<dyn ScriptFs>,
    /// The run's budget, for jobs, progress and child limits.
    pub budget: folio_budget::RunBudget,
}

/// How one blocking binding presents itself.
#[derive(Debug, Clone)]
pub struct BlockingSpec {
    /// The exported name (a JavaScript identifier).
    pub name: &'static str,
    /// The name messages use (`pdf.merge` for the export `pdf_merge`).
    pub label: String,
    /// Whether it writes files (refused while a script is validated).
    pub writes: bool,
    /// What its arguments may be, for the bytes refusal ("a path or an options object").
    pub accepts: &'static str,
}

impl BlockingSpec {
    /// A binding whose messages use its exported name.
    pub fn new(name: &'static str, writes: bool, accepts: &'static str) -> BlockingSpec {
        BlockingSpec { name, label: name.to_owned(), writes, accepts }
    }
}

/// The JSON arguments of a call, refusing bytes in the words of `accepts`.
pub fn json_args(args: &[HostValue], accepts: &str) -> Result<Vec<Value>, String> {
    args.iter()
        .enumerate()
        .map(|(i, a)| match a {
            HostValue::Undefined => Ok(Value::Null),
            HostValue::Json(v) => Ok(v.clone()),
            HostValue::Bytes(_) => Err(format!("argument {} must be {accepts}, not bytes", i + 1)),
        })
        .collect()
}

/// The host function for `spec`, running `run` on the blocking pool.
pub fn blocking_function<F>(spec: BlockingSpec, run: F) -> NativeFunction
where
    F: Fn(BlockingCall) -> Result<Value, String> + Send + Sync + 'static,
{
    let run = Arc::new(run);
    let name = spec.name.to_owned();
    let spec = Arc::new(spec);
    let call = HostFn::Async(Arc::new(move |args: Vec<HostValue>, cx: CallContext| {
        let run = Arc::clone(&run);
        let spec = Arc::clone(&spec);
        Box::pin(async move {
            if spec.writes && cx.read_only {
                return Err(format!(
                    "{} writes files, which is not allowed while a script is being validated — call it inside the default export",
                    spec.label
                ));
            }
            let call = BlockingCall {
                args: json_args(&args, spec.accepts)?,
                fs: Arc::clone(&cx.fs),
                budget: cx.budget.clone(),
            };
            let working = cx.work.begin();
            let out = tokio::task::spawn_blocking(move || {
                let _working = working;
                run(call)
            })
            .await
            .map_err(|e| format!("the host call did not complete: {e}"))??;
            if cx.cancel.is_cancelled() {
                return Err("the run was cancelled".into());
            }
            Ok(HostValue::Json(out))
        }) as HostFuture
    }));
    NativeFunction { name, call }
}
