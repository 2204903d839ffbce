// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.

export type NetworkModeName = "open" | "localOnly";

export type ModeSourceName = "global" | "folder";

export type PrivacyGetResponse = { 
/**
 * The global switch.
 */
globalMode: NetworkModeName, 
/**
 * The open folder, when one is open (its own settings apply only to it).
 */
folder: string | null, 
/**
 * The open folder's own switch (`open` when no folder is open).
 */
folderMode: NetworkModeName, 
/**
 * The open folder's never-send patterns (VFS globs such as `/clients/**`).
 */
neverSend: Array<string>, 
/**
 * The mode in force for the open folder (the stricter of the two switches).
 */
effective: NetworkModeName, 
/**
 * Which switch put local-only mode in force, when it is.
 */
source: ModeSourceName | null, 
/**
 * What applying the last change said (the folder reopened, an MCP server that did not mount).
 */
warnings: Array<string>, };

export type PrivacySaveParams = { 
/**
 * The global switch.
 */
globalMode: NetworkModeName, 
/**
 * The open folder's own switch.
 */
folderMode: NetworkModeName, 
/**
 * The open folder's never-send patterns, one per entry; blank entries are dropped, each
 * other one is validated (an invalid one is named with its fix and nothing is saved).
 */
neverSend: Array<string>, };

export type SentPurpose = "turn" | "summary" | "vision" | "connectionTest";

export type SentItemKind = "system" | "text" | "toolCall" | "toolResult" | "image";

export type SentSource = { 
/**
 * The folder path (`/data/q3.csv`).
 */
path: string, 
/**
 * Which part (`lines 1–40`, `page 3`); `None` for the whole file.
 */
range: string | null, };

export type SentImage = { 
/**
 * Its media type.
 */
mediaType: string, 
/**
 * Its decoded size.
 */
bytes: number, 
/**
 * SHA-256 of its bytes, hex (`sha256sum` of the file gives the same).
 */
sha256: string, 
/**
 * The file it came from, when known.
 */
source: string | null, };

export type SentItem = { 
/**
 * What it is.
 */
kind: SentItemKind, 
/**
 * Whose or which: `user`/`assistant` for text, the tool's name for calls and results.
 */
label: string, 
/**
 * How many characters of text it carried (the arguments of a call, the text of a result).
 */
chars: number, 
/**
 * The start of that text, on one line (the whole text is in the stored conversation).
 */
preview: string, 
/**
 * True for a tool result that was an error (a refusal among them).
 */
isError: boolean, 
/**
 * The files a tool result came from.
 */
sources: Array<SentSource>, 
/**
 * The image, for an image item.
 */
image: SentImage | null, };

export type SentRequest = { 
/**
 * The person's request it belongs to (1-based in the conversation).
 */
turn: number, 
/**
 * The model call within that request (1-based).
 */
call: number, 
/**
 * Why it was made.
 */
purpose: SentPurpose, 
/**
 * Which attempt (2 = the first retry).
 */
attempt: number, 
/**
 * The provider.
 */
provider: string, 
/**
 * The model id.
 */
model: string, 
/**
 * The URL the body was posted to.
 */
endpoint: string, 
/**
 * Size of the exact body sent.
 */
bodyBytes: number, 
/**
 * SHA-256 of the exact body sent, hex.
 */
bodySha256: string, 
/**
 * What it carried, in the conversation's order.
 */
items: Array<SentItem>, };
