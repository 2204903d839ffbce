//! A verb's arguments: the JSON Schema the model sees, generated from the Rust argument type, and
//! the parse that turns a mismatch into a message naming the expected shape. A leaf module: the
//! verb table and every verb family use it, and it uses only the error type.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use folio_script::CancelToken;

use crate::error::{EnvError, Result};

/// The JSON Schema of `T` as a tool schema: no `$schema` or `title`, always `properties` and
/// `required`, and `additionalProperties: false`.
pub fn schema<T: JsonSchema>() -> Value {
    let mut value = serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null);
    if let Some(obj) = value.as_object_mut() {
        obj.remove("$schema");
        obj.remove("title");
        obj.entry("properties").or_insert_with(|| json!({}));
        obj.entry("required").or_insert_with(|| json!([]));
        obj.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    value
}

/// One call as the verb table hands it to a verb: the verb's name (for messages), its raw
/// arguments, and the caller's cancel token.
pub struct Call<'a> {
    /// The verb's name.
    pub verb: &'static str,
    /// The arguments as sent (null means none).
    pub args: Value,
    /// Stops a script run this call starts.
    pub cancel: Option<&'a CancelToken>,
    /// Who asked for the call (a script run's provenance records it).
    pub origin: &'a crate::provenance::RunOrigin,
}

impl Call<'_> {
    /// Parses the arguments as `T`; a mismatch names the expected shape, required fields first.
    pub fn parse<T: DeserializeOwned + JsonSchema>(&self) -> Result<T> {
        let args = if self.args.is_null() { json!({}) } else { self.args.clone() };
        let verb = self.verb;
        serde_json::from_value(args).map_err(|err| {
            let schema = schema::<T>();
            let required: Vec<&str> =
                schema["required"].as_array().map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let optional = schema["properties"].as_object().map(|p| {
                p.keys().filter(|k| !required.contains(&k.as_str())).map(|k| format!("{k}?")).collect::<Vec<_>>()
            });
            let fields: Vec<String> =
                required.iter().map(|r| (*r).to_owned()).chain(optional.unwrap_or_default()).collect();
            EnvError::args(
                verb,
                format!("the arguments do not fit ({err}) — call it as {verb} {{ {} }}", fields.join(", ")),
            )
        })
    }
}
