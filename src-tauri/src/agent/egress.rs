//! What crosses the boundary, on the app's side: the UI's names of the network modes, and the
//! egress ledger's entries as the transcript's "What was sent" rows. (The boundary a turn runs
//! behind is folio-workspace's `Workspace::boundary`, read afresh each turn, as `folio ask` reads
//! it: a store that cannot be read refuses the turn with the path and the fix.)
//!
//! **The ledger rows.** The client records each request as it sends it
//! ([`folio_agent::LedgerEntry`]); the runtime stores the entry with the conversation, whole, and
//! the transcript gets [`sent`]: the same request with each text cut to a one-line preview and its
//! length, so a long conversation's panel stays light while the store keeps everything.

use folio_agent::{LedgerEntry, LedgerItem, Purpose, Role};
use folio_boundary::{ModeSource, NetworkMode};

use crate::api::{
    ModeSourceName, NetworkModeName, SentImage, SentItem, SentItemKind, SentPurpose, SentRequest, SentSource,
};

/// The longest preview of an item's text, in characters.
const PREVIEW_CHARS: usize = 160;

/// The UI's name of a network mode.
pub fn mode_name(mode: NetworkMode) -> NetworkModeName {
    match mode {
        NetworkMode::Open => NetworkModeName::Open,
        NetworkMode::LocalOnly => NetworkModeName::LocalOnly,
    }
}

/// The network mode of a UI name.
pub fn mode_of(name: NetworkModeName) -> NetworkMode {
    match name {
        NetworkModeName::Open => NetworkMode::Open,
        NetworkModeName::LocalOnly => NetworkMode::LocalOnly,
    }
}

/// The UI's name of the switch that set local-only mode.
pub fn source_name(source: ModeSource) -> ModeSourceName {
    match source {
        ModeSource::Global => ModeSourceName::Global,
        ModeSource::Folder => ModeSourceName::Folder,
    }
}

fn purpose(p: Purpose) -> SentPurpose {
    match p {
        Purpose::Turn => SentPurpose::Turn,
        Purpose::Summary => SentPurpose::Summary,
        Purpose::Vision => SentPurpose::Vision,
        Purpose::ConnectionTest => SentPurpose::ConnectionTest,
    }
}

/// `text`'s length in characters and its first line(s) folded to one, cut at [`PREVIEW_CHARS`].
fn preview(text: &str) -> (u32, String) {
    let chars = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
    let folded: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut = if folded.chars().count() > PREVIEW_CHARS {
        format!("{}…", folded.chars().take(PREVIEW_CHARS).collect::<String>())
    } else {
        folded
    };
    (chars, cut)
}

fn item(kind: SentItemKind, label: &str, text: &str) -> SentItem {
    let (chars, preview) = preview(text);
    SentItem { kind, label: label.to_owned(), chars, preview, is_error: false, sources: Vec::new(), image: None }
}

/// One ledger item as a row of the panel.
fn sent_item(entry: &LedgerItem) -> SentItem {
    match entry {
        LedgerItem::System { text } => item(SentItemKind::System, "system", text),
        LedgerItem::Text { role, text } => {
            let who = match role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            item(SentItemKind::Text, who, text)
        }
        LedgerItem::ToolCall { name, arguments, .. } => item(SentItemKind::ToolCall, name, arguments),
        LedgerItem::ToolResult { name, text, is_error, sources, .. } => SentItem {
            is_error: *is_error,
            sources: sources.iter().map(|s| SentSource { path: s.path.clone(), range: s.range.clone() }).collect(),
            ..item(SentItemKind::ToolResult, name, text)
        },
        LedgerItem::Image { media_type, bytes, sha256, source, .. } => SentItem {
            image: Some(SentImage {
                media_type: media_type.clone(),
                bytes: *bytes,
                sha256: sha256.clone(),
                source: source.clone(),
            }),
            ..item(SentItemKind::Image, "image", "")
        },
    }
}

/// The ledger's entry as the transcript's "What was sent" row.
pub fn sent(entry: &LedgerEntry) -> SentRequest {
    SentRequest {
        turn: entry.turn,
        call: entry.call,
        purpose: purpose(entry.purpose),
        attempt: entry.attempt,
        provider: entry.provider.clone(),
        model: entry.model.clone(),
        endpoint: entry.endpoint.clone(),
        body_bytes: entry.body_bytes,
        body_sha256: entry.body_sha256.clone(),
        items: entry.items.iter().map(sent_item).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_fold_lines_and_cut_long_text_but_count_all_of_it() {
        let cases = [("short", 5, "short"), ("two\nlines\n", 10, "two lines"), (&"x".repeat(400) as &str, 400, "")];
        for (text, chars, want) in cases {
            let (n, got) = preview(text);
            assert_eq!(n, chars, "{text:?}");
            if want.is_empty() {
                assert_eq!(got.chars().count(), PREVIEW_CHARS + 1, "cut with an ellipsis");
                assert!(got.ends_with('…'));
            } else {
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn a_tool_result_keeps_its_sources_and_an_image_its_hash() {
        let result = LedgerItem::ToolResult {
            id: "c1".into(),
            name: "read_file".into(),
            text: "a,b\n1,2".into(),
            is_error: false,
            sources: vec![folio_agent::Source { path: "/data/q3.csv".into(), range: Some("lines 1–2".into()) }],
        };
        let row = sent_item(&result);
        assert_eq!(row.kind, SentItemKind::ToolResult);
        assert_eq!(row.sources, vec![SentSource { path: "/data/q3.csv".into(), range: Some("lines 1–2".into()) }]);
        let image = LedgerItem::Image {
            media_type: "image/png".into(),
            bytes: 68,
            sha256: "ab".repeat(32),
            source: Some("/img/chart.png".into()),
            call_id: None,
        };
        let row = sent_item(&image);
        assert_eq!(row.image.as_ref().map(|i| (i.bytes, i.source.as_deref())), Some((68, Some("/img/chart.png"))));
    }
}
