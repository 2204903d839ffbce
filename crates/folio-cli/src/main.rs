//! The `folio` command.
fn main() {}
