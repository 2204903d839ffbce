//! The verb table: every verb the environment offers, declared once — its name, its description
//! for the model, the JSON Schema of its arguments, whether it can change the tree, which host
//! seam must be wired for it to be offered, and the function that runs it. The tool list
//! ([`crate::Environment::tools`]), the dispatch ([`crate::Environment::call`]), the agent loop's
//! "did this call mutate" question ([`verb`]) and the orientation file's verb list all read this
//! table, so a verb cannot be listed without being dispatched, or dispatched without being listed.
//!
//! The order of the rows is the order the tools are listed in.

use serde_json::Value;

use super::args::{Call, schema};
use super::{Reply, checkpoint, describe, diff, grep, history, ls, person, read, remove, run_script, view, write};
use crate::env::Environment;
use crate::error::Result;
use crate::versions::Side;

/// A host seam a verb needs before it is offered; without it the verb is neither listed nor
/// callable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// The script engine (`EnvOptions::no_scripts` is off).
    Scripts,
    /// `EnvOptions::vision`.
    Vision,
    /// `EnvOptions::presenter`.
    Presenter,
    /// `EnvOptions::asker`.
    Asker,
}

impl Capability {
    /// True when `env` has this seam wired.
    pub fn wired(self, env: &Environment) -> bool {
        match self {
            Capability::Scripts => env.scripts.is_some(),
            Capability::Vision => env.opts.vision.is_some(),
            Capability::Presenter => env.opts.presenter.is_some(),
            Capability::Asker => env.opts.asker.is_some(),
        }
    }
}

/// A verb's description for the model: fixed text, or text built from the environment (the
/// modules `run_script` can import are the ones registered).
#[derive(Clone, Copy)]
pub enum Doc {
    /// The same text everywhere.
    Fixed(&'static str),
    /// Text that names what this environment has.
    Built(fn(&Environment) -> String),
}

/// Runs one verb: parses the call's arguments and does the work.
pub type Handler = fn(&Environment, Call<'_>) -> Result<Reply>;

/// One row of the table.
pub struct VerbSpec {
    /// Which verb.
    pub verb: Verb,
    /// Its name, as the model calls it.
    pub name: &'static str,
    /// What it does, for the model.
    pub doc: Doc,
    /// The JSON Schema of its arguments.
    pub schema: fn() -> Value,
    /// True when the verb can change the tree.
    pub mutates: bool,
    /// The seam it needs, if any.
    pub needs: Option<Capability>,
    /// The function that runs it.
    pub call: Handler,
}

impl VerbSpec {
    /// True when `env` offers this verb (its seam, if it needs one, is wired).
    pub fn offered(&self, env: &Environment) -> bool {
        self.needs.is_none_or(|c| c.wired(env))
    }

    /// Its description in `env`.
    pub fn description(&self, env: &Environment) -> String {
        match self.doc {
            Doc::Fixed(text) => text.to_owned(),
            Doc::Built(build) => build(env),
        }
    }
}

/// Declares [`Verb`] and [`VERBS`] from one list, so each verb is written once.
macro_rules! verbs {
    ($($(#[$meta:meta])* $variant:ident = $name:literal {
        doc: $doc:expr, schema: $schema:expr, mutates: $mutates:expr, needs: $needs:expr, call: $call:expr $(,)?
    })*) => {
        /// Every verb the environment knows, in table order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Verb {
            $($(#[$meta])* $variant,)*
        }

        /// The verb table, in the order tools are listed.
        pub static VERBS: &[VerbSpec] = &[$(VerbSpec {
            verb: Verb::$variant,
            name: $name,
            doc: $doc,
            schema: $schema,
            mutates: $mutates,
            needs: $needs,
            call: $call,
        },)*];
    };
}

verbs! {
    /// `write_file`.
    WriteFile = "write_file" {
        doc: Doc::Fixed(write::WRITE_DOC), schema: schema::<write::WriteArgs>, mutates: true, needs: None,
        call: |env, call| write::write_file(env, call.parse()?),
    }
    /// `edit_file`.
    EditFile = "edit_file" {
        doc: Doc::Fixed(write::EDIT_DOC), schema: schema::<write::EditArgs>, mutates: true, needs: None,
        call: |env, call| write::edit_file(env, call.parse()?),
    }
    /// `rm`.
    Rm = "rm" {
        doc: Doc::Fixed(remove::RM_DOC), schema: schema::<remove::RmArgs>, mutates: true, needs: None,
        call: |env, call| remove::rm(env, call.parse()?),
    }
    /// `mv`.
    Mv = "mv" {
        doc: Doc::Fixed(remove::MV_DOC), schema: schema::<remove::TransferArgs>, mutates: true, needs: None,
        call: |env, call| remove::transfer(env, call.parse()?, true),
    }
    /// `cp`.
    Cp = "cp" {
        doc: Doc::Fixed(remove::CP_DOC), schema: schema::<remove::TransferArgs>, mutates: true, needs: None,
        call: |env, call| remove::transfer(env, call.parse()?, false),
    }
    /// `read_file`.
    ReadFile = "read_file" {
        doc: Doc::Fixed(read::READ_DOC), schema: schema::<read::ReadArgs>, mutates: false, needs: None,
        call: |env, call| read::read_file(env, call.parse()?),
    }
    /// `ls`.
    Ls = "ls" {
        doc: Doc::Fixed(ls::LS_DOC), schema: schema::<ls::LsArgs>, mutates: false, needs: None,
        call: |env, call| ls::ls(env, call.parse()?),
    }
    /// `grep`.
    Grep = "grep" {
        doc: Doc::Fixed(grep::GREP_DOC), schema: schema::<grep::GrepArgs>, mutates: false, needs: None,
        call: |env, call| grep::grep(env, call.parse()?),
    }
    /// `describe`.
    Describe = "describe" {
        doc: Doc::Fixed(describe::DESCRIBE_DOC), schema: schema::<describe::DescribeArgs>, mutates: false,
        needs: None, call: |env, call| describe::describe(env, call.parse()?),
    }
    /// `run_script`.
    RunScript = "run_script" {
        doc: Doc::Built(run_script::run_doc), schema: schema::<run_script::RunArgs>, mutates: true,
        needs: Some(Capability::Scripts), call: |env, call| run_script::run_script(env, call.parse()?, call.cancel, call.origin),
    }
    /// `run_tests`.
    RunTests = "run_tests" {
        doc: Doc::Fixed(run_script::TESTS_DOC), schema: schema::<run_script::TestsArgs>, mutates: true,
        needs: Some(Capability::Scripts), call: |env, call| run_script::run_tests(env, call.parse()?, call.cancel),
    }
    /// `undo`.
    Undo = "undo" {
        doc: Doc::Fixed(history::UNDO_DOC), schema: schema::<history::StepArgs>, mutates: true, needs: None,
        call: |env, call| history::step(env, call.parse()?, Side::Undo),
    }
    /// `redo`.
    Redo = "redo" {
        doc: Doc::Fixed(history::REDO_DOC), schema: schema::<history::StepArgs>, mutates: true, needs: None,
        call: |env, call| history::step(env, call.parse()?, Side::Redo),
    }
    /// `checkpoint`.
    Checkpoint = "checkpoint" {
        doc: Doc::Fixed(checkpoint::CHECKPOINT_DOC), schema: schema::<checkpoint::CheckpointArgs>, mutates: true,
        needs: None, call: |env, call| checkpoint::checkpoint(env, call.parse()?),
    }
    /// `diff`.
    Diff = "diff" {
        doc: Doc::Fixed(diff::DIFF_DOC), schema: schema::<diff::DiffArgs>, mutates: false, needs: None,
        call: |env, call| diff::diff(env, call.parse()?),
    }
    /// `history`.
    History = "history" {
        doc: Doc::Fixed(history::HISTORY_DOC), schema: schema::<history::HistoryArgs>, mutates: false,
        needs: None, call: |env, call| history::history(env, call.parse()?),
    }
    /// `view_image`.
    ViewImage = "view_image" {
        doc: Doc::Fixed(view::VIEW_DOC), schema: schema::<view::ViewArgs>, mutates: false,
        needs: Some(Capability::Vision), call: |env, call| view::view_image(env, call.parse()?),
    }
    /// `present`.
    Present = "present" {
        doc: Doc::Fixed(person::PRESENT_DOC), schema: schema::<person::PresentArgs>, mutates: false,
        needs: Some(Capability::Presenter), call: |env, call| person::present(env, call.parse()?),
    }
    /// `ask_user`.
    AskUser = "ask_user" {
        doc: Doc::Fixed(person::ASK_DOC), schema: schema::<person::AskArgs>, mutates: false,
        needs: Some(Capability::Asker), call: |env, call| person::ask_user(env, call.parse()?),
    }
}

impl Verb {
    /// Its row in [`VERBS`] (the macro declares both in the same order).
    pub fn spec(self) -> &'static VerbSpec {
        &VERBS[self as usize]
    }

    /// Its name, as the model calls it.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The verb called `name`, if there is one (whether or not a given environment offers it).
    pub fn from_name(name: &str) -> Option<Verb> {
        verb(name).map(|s| s.verb)
    }
}

impl std::fmt::Display for Verb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The row of the verb called `name`: for a host that needs a verb's facts (does it mutate?)
/// without building the tool list.
pub fn verb(name: &str) -> Option<&'static VerbSpec> {
    VERBS.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_sits_at_its_verbs_index_and_names_are_unique() {
        for (i, spec) in VERBS.iter().enumerate() {
            assert_eq!(spec.verb as usize, i, "{} is out of place", spec.name);
            assert_eq!(Verb::from_name(spec.name), Some(spec.verb));
            assert_eq!(VERBS.iter().filter(|s| s.name == spec.name).count(), 1, "{} twice", spec.name);
        }
        assert_eq!(Verb::from_name("no_such_verb"), None);
    }
}
