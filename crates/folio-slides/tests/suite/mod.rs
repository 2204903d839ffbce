mod common;
mod deck;
mod hostile;
mod module;
mod reading;
