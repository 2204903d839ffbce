//! `define_tools`: host functions with JSON Schemas as one `env:<name>` module, and
//! the module builder `mount_mcp` shares.
//!
//! Every binding is `async (args?) =>` one JSON object. During write-time validation a binding
//! refuses before anything runs, so saving a script never fires an effect; while a run goes, the
//! call races the run's cancellation token, so a cancelled run does not wait on a slow tool.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use folio_script::{CallContext, HostFn, HostValue, NativeFunction, NativeModule};
use serde_json::Value;

use crate::McpError;
use crate::schema::{binding_for, comment_text, example_keys, is_binding, takes_no_properties, ts_type};

/// One capability: a host function with a JSON Schema for its one argument.
#[derive(Clone)]
pub struct ToolSpec {
    /// The binding's name; must match `/^[A-Za-z_][A-Za-z0-9_]*$/` (`server__tool` is fine).
    pub name: String,
    /// What the tool does, shown as JSDoc on its declaration and in the docs.
    pub description: String,
    /// The JSON Schema of the argument object (`{"type":"object","properties":{…}}`).
    pub input_schema: Value,
    /// The implementation. It receives one argument, the JSON object the script passed (`{}`
    /// when it passed nothing).
    pub call: HostFn,
}

/// A tool ready to become a binding: its spec plus, for MCP tools, the server's own name for it.
pub(crate) struct Tool {
    pub spec: ToolSpec,
    pub remote_name: Option<String>,
}

/// An `env:<name>` module with one async binding per tool, generated `.d.ts` and docs.
///
/// Fails with [`McpError::Definition`] when the name is not a module name, the list is empty, a
/// tool's name is not an identifier or repeats, or a schema is not an object.
pub fn define_tools(name: &str, description: &str, tools: Vec<ToolSpec>) -> Result<NativeModule, McpError> {
    let tools = tools.into_iter().map(|spec| Tool { spec, remote_name: None }).collect();
    build_module(name, description, tools, "")
}

/// The MCP tool `remote` as a [`Tool`] with its binding name derived.
pub(crate) fn remote_tool(remote: &str, description: String, input_schema: Value, call: HostFn) -> Tool {
    Tool {
        spec: ToolSpec { name: binding_for(remote), description, input_schema, call },
        remote_name: Some(remote.to_owned()),
    }
}

pub(crate) fn build_module(
    name: &str,
    description: &str,
    tools: Vec<Tool>,
    extra_docs: &str,
) -> Result<NativeModule, McpError> {
    let invalid = |why: String| McpError::Definition { module: name.to_owned(), problem: why };
    let name_ok = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !name_ok {
        return Err(invalid("the module name must match /^[a-z][a-z0-9_-]*$/ (like \"github\")".into()));
    }
    if tools.is_empty() {
        return Err(invalid("there are no tools to expose — pass at least one".into()));
    }
    let description = if description.trim().is_empty() {
        format!("{} capabilities callable from scripts.", tools.len())
    } else {
        description.trim().to_owned()
    };
    let mut seen = BTreeSet::new();
    for tool in &tools {
        let binding = &tool.spec.name;
        let origin = tool.remote_name.as_ref().map(|r| format!(" (from the tool \"{r}\")")).unwrap_or_default();
        if !is_binding(binding) {
            return Err(invalid(format!(
                "\"{binding}\"{origin} is not a valid identifier, so a script could not import it. Rename it to match /^[A-Za-z_][A-Za-z0-9_]*$/ and not a reserved word"
            )));
        }
        if !seen.insert(binding.clone()) {
            return Err(invalid(format!("duplicate function name \"{binding}\"{origin}")));
        }
        if !tool.spec.input_schema.is_object() {
            return Err(invalid(format!("the input schema of \"{binding}\" is not a JSON object")));
        }
    }
    let types_dts = declarations(name, &description, &tools);
    let docs = readme(name, &description, &tools, extra_docs);
    let functions = tools
        .into_iter()
        .map(|tool| NativeFunction {
            name: tool.spec.name.clone(),
            call: binding(name, &tool.spec.name, tool.spec.call),
        })
        .collect();
    Ok(NativeModule {
        name: name.to_owned(),
        description,
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts,
        docs,
        functions,
        js_api: None,
    })
}

/// Wraps `call` with the argument rule, the validation refusal and the run's cancellation.
fn binding(module: &str, name: &str, call: HostFn) -> HostFn {
    let label = format!("env:{module}.{name}");
    HostFn::Async(std::sync::Arc::new(move |args: Vec<HostValue>, ctx: CallContext| {
        let label = label.clone();
        let call = call.clone();
        Box::pin(async move {
            if ctx.read_only {
                return Err(format!(
                    "{label} is not callable while a script is being validated — move the call inside the default export instead of running it at module top level."
                ));
            }
            let arg = match args.into_iter().next() {
                None | Some(HostValue::Undefined) | Some(HostValue::Json(Value::Null)) => {
                    Value::Object(Default::default())
                }
                Some(HostValue::Json(v @ Value::Object(_))) => v,
                Some(other) => {
                    let got = match other {
                        HostValue::Bytes(_) => "bytes".to_owned(),
                        HostValue::Json(v) => format!("{v}").chars().take(60).collect(),
                        HostValue::Undefined => "undefined".to_owned(),
                    };
                    return Err(format!(
                        "takes one object of named arguments, like {label}({{ … }}), but got {got} — see the module's .d.ts for the fields"
                    ));
                }
            };
            let cancel = ctx.cancel.clone();
            let work = async move {
                match &call {
                    HostFn::Sync(f) => f(vec![HostValue::Json(arg)], &ctx),
                    HostFn::Async(f) => f(vec![HostValue::Json(arg)], ctx.clone()).await,
                }
            };
            tokio::select! {
                result = work => result,
                () = cancel.cancelled() => Err("the run ended before the tool answered, so its result was dropped".into()),
            }
        })
    }))
}

fn declarations(module: &str, description: &str, tools: &[Tool]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "/**\n * env:{module} — {}", comment_text(description));
    let _ = writeln!(
        out,
        " *\n * Every function here is ASYNC (it reaches a capability outside the script). Always await.\n * Each takes one object of named arguments; a failure throws an Error \"env:{module}.<fn>: <reason>\".\n */"
    );
    for tool in tools {
        let spec = &tool.spec;
        let mut doc = comment_text(spec.description.trim());
        if let Some(remote) = &tool.remote_name
            && remote != &spec.name
        {
            if !doc.is_empty() {
                doc.push_str("\n * ");
            }
            doc.push_str(&format!("(MCP tool \"{}\")", comment_text(remote)));
        }
        if !doc.is_empty() {
            let _ = writeln!(out, "\n/** {} */", doc.replace('\n', "\n * "));
        } else {
            out.push('\n');
        }
        let arg = if takes_no_properties(&spec.input_schema) {
            "args?: Record<string, any>".to_owned()
        } else {
            format!("args: {}", ts_type(&spec.input_schema, 0, 0))
        };
        let _ = writeln!(out, "export function {}({arg}): Promise<any>;", spec.name);
    }
    out
}

fn readme(module: &str, description: &str, tools: &[Tool], extra: &str) -> String {
    let names: Vec<&str> = tools.iter().map(|t| t.spec.name.as_str()).collect();
    let mut out = format!(
        "# env:{module}\n\n{description}\n\n```js\nimport {{ {} }} from 'env:{module}';\n```\n\n",
        names.iter().take(3).copied().collect::<Vec<_>>().join(", ")
    );
    out.push_str("**Everything here is async — always `await`.**\n\n");
    out.push_str("Call these from a script rather than one by one: a loop over forty calls keeps forty results in variables and returns one line.\n\n## Available\n\n");
    for tool in tools {
        let first_line = tool.spec.description.lines().next().unwrap_or("").trim();
        let remote = tool
            .remote_name
            .as_ref()
            .filter(|r| *r != &tool.spec.name)
            .map(|r| format!(" (tool \"{r}\")"))
            .unwrap_or_default();
        let _ = writeln!(out, "- `{}(…)`{remote} — {first_line}", tool.spec.name);
    }
    if let Some(first) = tools.first() {
        let fields: Vec<String> =
            example_keys(&first.spec.input_schema).into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let arg = if fields.is_empty() { String::new() } else { format!("{{ {} }}", fields.join(", ")) };
        let _ = write!(
            out,
            "\n## Shape of a call\n\n```js\nconst result = await {}({arg});\n```\n\nThe argument and result types are in the module's `.d.ts`.\n",
            first.spec.name
        );
    }
    if !extra.trim().is_empty() {
        out.push('\n');
        out.push_str(extra.trim());
        out.push('\n');
    }
    out
}
