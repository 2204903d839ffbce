// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.

export type McpTransportKind = "stdio" | "http";

export type McpSettingRow = { 
/**
 * The variable or header name.
 */
name: string, 
/**
 * Its value. For a saved secret the answer leaves it empty (the value stays in the
 * keychain); sending it empty keeps the saved one.
 */
value: string, 
/**
 * Kept in the keychain, never in the file.
 */
secret: boolean, 
/**
 * In answers: a secret value is saved for it.
 */
saved: boolean, };

export type McpServerForm = { 
/**
 * The module name: scripts import `env:<name>`.
 */
name: string, 
/**
 * Stdio or HTTP.
 */
kind: McpTransportKind, 
/**
 * The program (stdio).
 */
command: string, 
/**
 * Its arguments (stdio).
 */
args: Array<string>, 
/**
 * The endpoint (HTTP).
 */
url: string, 
/**
 * Environment variables (stdio) or headers (HTTP).
 */
settings: Array<McpSettingRow>, 
/**
 * Mounted in new conversations.
 */
enabled: boolean, 
/**
 * `None`: every folder; otherwise only this folder.
 */
folder: string | null, };

export type CapabilitiesGetResponse = { 
/**
 * The servers, in the order they were added.
 */
servers: Array<McpServerForm>, 
/**
 * The open folder, when one is open.
 */
folder: string | null, 
/**
 * Names a server may not take (Folio's own modules).
 */
reserved: Array<string>, 
/**
 * Where the list is kept.
 */
file: string, 
/**
 * What applying the last change said (reopening the folder, a server that did not mount).
 */
warnings: Array<string>, };

export type CapabilitiesSaveParams = { 
/**
 * The server.
 */
server: McpServerForm, 
/**
 * The name of the server it replaces (an edit); `None` adds it.
 */
replacing: string | null, };

export type CapabilitiesRemoveParams = { 
/**
 * The server's name.
 */
name: string, };

export type CapabilitiesEnableParams = { 
/**
 * The server's name.
 */
name: string, 
/**
 * On or off.
 */
enabled: boolean, };

export type CapabilitiesTestParams = { 
/**
 * The server.
 */
server: McpServerForm, };

export type McpToolRow = { 
/**
 * The name scripts import.
 */
binding: string, 
/**
 * The server's own name for it.
 */
remote: string, 
/**
 * What it does.
 */
description: string, };

export type CapabilitiesTestResponse = { 
/**
 * It mounted.
 */
ok: boolean, 
/**
 * What was tried (the command line or URL).
 */
tried: string, 
/**
 * Its tools, when it mounted.
 */
tools: Array<McpToolRow>, 
/**
 * Why it did not (the server's stderr included), when it did not.
 */
error: string | null, 
/**
 * How long connecting and listing took.
 */
tookMs: number, };
