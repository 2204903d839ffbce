mod common;
mod encode;
mod fixtures;
mod hostile;
mod module;
mod ops;
