mod common;
mod encode;
