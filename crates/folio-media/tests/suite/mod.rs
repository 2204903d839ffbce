mod common;
mod corpus;
mod encode;
mod fixtures;
mod hostile;
mod module;
mod ops;
