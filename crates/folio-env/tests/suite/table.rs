//! The verb table is the one home of the verbs: every row is dispatched and documented, and
//! `run_script`'s description names every module the engine has registered.

use std::sync::Arc;

use folio_env::{
    Answers, Capability, Engine, EnvOptions, Environment, Presented, Presenter, Sight, Status, VERBS, Vision,
};
use folio_script::{ModuleRegistry, NativeModule, ScriptLimits};
use serde_json::json;

use super::{env, env_with};

struct Quiet;
impl Presenter for Quiet {
    fn present(&self, _: &Presented) -> Result<(), String> {
        Ok(())
    }
}
impl Vision for Quiet {
    fn look(&self, _: &[u8], _: &str, _: &str) -> Result<Sight, String> {
        Ok(Sight::Answer("seen".into()))
    }
}

/// An environment with every host seam wired, so every verb of the table is offered.
fn wired() -> Environment {
    env_with(EnvOptions {
        presenter: Some(Arc::new(Quiet)),
        vision: Some(Arc::new(Quiet)),
        asker: Some(Arc::new(Answers::new(Vec::new()))),
        ..EnvOptions::default()
    })
}

#[test]
fn every_verb_in_the_table_is_listed_and_dispatched() {
    let env = wired();
    let listed: Vec<&str> = env.tools().iter().map(|t| t.name).collect();
    let declared: Vec<&str> = VERBS.iter().map(|v| v.name).collect();
    assert_eq!(listed, declared, "with every seam wired, the tool list is the table");
    for spec in VERBS {
        // Every argument struct refuses unknown fields, so a stray one reaches the verb's own
        // parse: an argument error from the verb, never "no verb named".
        let r = env.call(spec.name, json!({"not_an_argument_of_any_verb": 1}));
        assert_eq!(r.status, Status::Error, "{}: {}", spec.name, r.message);
        assert!(
            r.message.starts_with(&format!("{}: the arguments do not fit", spec.name)),
            "{} was not dispatched to its own parse: {}",
            spec.name,
            r.message
        );
        let tool = env.tools().into_iter().find(|t| t.name == spec.name).unwrap();
        assert_eq!(tool.mutates, spec.mutates, "{}", spec.name);
        assert_eq!(folio_env::verb(spec.name).map(|v| v.mutates), Some(spec.mutates));
    }
}

#[test]
fn a_verb_whose_seam_is_missing_is_neither_listed_nor_callable() {
    let env = env_with(EnvOptions { no_scripts: true, ..EnvOptions::default() });
    let listed: Vec<&str> = env.tools().iter().map(|t| t.name).collect();
    for spec in VERBS {
        let offered = spec.needs.is_none();
        assert_eq!(listed.contains(&spec.name), offered, "{}", spec.name);
        if !offered {
            let r = env.call(spec.name, json!({}));
            assert!(r.message.contains(&format!("no verb named \"{}\"", spec.name)), "{}", r.message);
        }
    }
    assert!(VERBS.iter().any(|v| v.needs == Some(Capability::Scripts)));
}

#[test]
fn every_offered_verb_is_in_the_orientation_file_and_the_readme() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let section = readme.split("### Driving the working environment").nth(1).unwrap_or_default();
    for env in [env(), wired()] {
        let orientation = folio_env::orientation(&env);
        let verbs = orientation.split("## Verbs").nth(1).unwrap_or_default();
        for tool in env.tools() {
            assert!(verbs.contains(tool.name), "orientation's verb list lacks {}:\n{orientation}", tool.name);
        }
    }
    for spec in VERBS {
        assert!(section.contains(&format!("`{}`", spec.name)), "README's `folio verbs` section lacks `{}`", spec.name);
    }
}

#[test]
fn run_scripts_description_names_every_registered_module() {
    let mut registry = ModuleRegistry::with_builtins();
    registry
        .register_native(NativeModule {
            name: "weather".into(),
            description: "forecasts for a place and a day".into(),
            version: "1".into(),
            types_dts: "export declare function forecast(place: string): Promise<string>;\n".into(),
            ..NativeModule::default()
        })
        .unwrap();
    let engine = Arc::new(Engine::new(registry, ScriptLimits::default()));
    let env = env_with(EnvOptions { engine: Some(engine.clone()), ..EnvOptions::default() });
    let run = env.tools().into_iter().find(|t| t.name == "run_script").unwrap();
    let modules = engine.registry().modules();
    assert_eq!(modules.len(), 4, "the builtins and the extra module");
    for m in modules {
        let named = format!("env:{} ({})", m.name, m.description);
        assert!(run.description.contains(&named), "run_script's description lacks {named}:\n{}", run.description);
    }
    // The default engine has only the builtins, and the description says no more than that.
    let plain = super::env().tools().into_iter().find(|t| t.name == "run_script").unwrap();
    assert!(!plain.description.contains("env:weather") && plain.description.contains("env:assert"));
}
