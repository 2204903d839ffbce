mod common;
mod corpus;
mod create;
mod edit;
mod hostile;
mod review;
