//! `folio-email`: email messages read as data, for the `env:email` script module and the
//! `describe`/`ls`/`grep` handler.
//!
//! Two containers, one model ([`Mail`]): `.eml` goes through the `mail-parser` crate (MIME
//! structure, RFC 2047 encoded words, charsets; an iterative parser, so a deep nest of parts
//! cannot exhaust the stack, and a part count over [`Limits::max_parts`] is refused); Outlook
//! `.msg` is read from its compound file with the `cfb` crate ([`msg`]), its compressed RTF body
//! decoded by [`rtf`] (MS-OXRTFCP, written from the spec). `.mbox` is counted and refused.
//!
//! # Decisions
//!
//! - **Content before extension** ([`detect`]): the compound-file signature means mail only when
//!   the file has Outlook's `__substg1.0_` property streams, so a legacy `.doc`/`.xls`/`.ppt`
//!   is never taken for a message.
//! - **Every check before the first write** ([`ops::extract`]): the attachment count
//!   ([`Limits::max_attachments`], 200 as in the reference), the total bytes, and each
//!   attachment's safe, unique name ([`names`]) are settled first, so a refusal leaves nothing.
//! - **Every write through the gateway** ([`modules::GatewayFs`]): attachments are pending
//!   overlay edits under the chosen folder, never host paths.
//! - **Embedded messages are extractable**: an embedded Outlook item is written as an `.eml`
//!   ([`render::to_eml`]) beside the other attachments and named in `note`.

pub mod detect;
pub mod eml;
pub mod error;
pub mod handler;
pub mod limits;
pub mod model;
pub mod modules;
pub mod msg;
pub mod names;
pub mod ops;
pub mod render;
pub mod rtf;

pub use error::EmailError;
pub use handler::EmailHandler;
pub use limits::Limits;
pub use model::{Attachment, Format, Mail};
pub use modules::{SKILL, email_module};
