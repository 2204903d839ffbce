mod common;
mod corpus;
mod crafted;
mod module;
