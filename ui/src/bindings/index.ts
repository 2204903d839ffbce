// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.
export * from "./core";
export * from "./agent";
export * from "./mcp";
export * from "./preview";
export * from "./privacy";
export * from "./provenance";
export * from "./review";
export * from "./updates";
