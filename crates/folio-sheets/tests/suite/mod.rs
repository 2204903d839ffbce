mod common;
mod corpus;
mod hostile;
mod module;
mod recalc;
mod structure;
mod write;
