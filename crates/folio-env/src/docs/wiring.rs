//! Docs fit to the wiring: a module's README, `.d.ts` or skill is written once for every host,
//! but a host-gated verb (`view_image`, `ask_user`, `present`) exists only where its seam is
//! wired. Before `/std` and `/skills` are written, every sentence that names a verb this
//! environment does not offer is dropped (a list item or a line left with nothing, whole), so
//! the model is never told to call what is not there. `folio-host`'s `docs_truth` test checks
//! the result for every wiring.

/// True when `text` names `verb` as a verb: a snake_case name as a word anywhere; a plain word
/// in backticks, called, or followed by `it`.
pub(crate) fn names_verb(text: &str, verb: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if verb.contains('_') {
        return text.match_indices(verb).any(|(i, _)| {
            !text[..i].chars().next_back().is_some_and(word) && !text[i + verb.len()..].chars().next().is_some_and(word)
        });
    }
    [format!("`{verb}`"), format!("`{verb}("), format!(" {verb}({{")].iter().any(|p| text.contains(p.as_str()))
}

/// `text` without the sentences that name any of `absent`.
pub(crate) fn without(text: &str, absent: &[&str]) -> String {
    if absent.iter().all(|v| !names_verb(text, v)) {
        return text.to_owned();
    }
    let mut out = Vec::new();
    for line in text.split('\n') {
        if absent.iter().all(|v| !names_verb(line, v)) {
            out.push(line.to_owned());
            continue;
        }
        let kept: Vec<&str> =
            sentences(line).into_iter().filter(|s| absent.iter().all(|v| !names_verb(s, v))).collect();
        let joined = kept.concat();
        let body = joined.trim();
        let marker_only = body.is_empty()
            || body == "-"
            || body == "*"
            || (body.ends_with('.') && body[..body.len() - 1].chars().all(|c| c.is_ascii_digit()));
        let first_dropped = kept.first().is_none_or(|f| !line.starts_with(f));
        let list_item = {
            let t = line.trim_start();
            t.starts_with("- ")
                || t.starts_with("* ")
                || t.split_once(". ").is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
        };
        if marker_only || (list_item && first_dropped) {
            continue;
        }
        out.push(joined.trim_end().to_owned());
    }
    out.join("\n")
}

/// `line` cut after each ". ", "! " or "? " (each piece keeps its end).
fn sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    for i in 0..bytes.len().saturating_sub(1) {
        if matches!(bytes[i], b'.' | b'!' | b'?') && bytes[i + 1] == b' ' {
            out.push(&line[start..=i + 1]);
            start = i + 2;
        }
    }
    if start < line.len() {
        out.push(&line[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_naming_an_absent_verb_is_dropped_and_the_rest_kept() {
        let text = "# Render\n\nRender to /tmp. Look at the pages with view_image. Pages are 1-based.\n- check with `view_image`\n- keep going\n2. `still(s)`, then `view_image` it.\n3. Render.\n`present` it when done.";
        let got = without(text, &["view_image", "present"]);
        assert_eq!(got, "# Render\n\nRender to /tmp. Pages are 1-based.\n- keep going\n3. Render.");
        assert_eq!(without(text, &[]), text);
        assert!(!names_verb("Present the result to the person.", "present"));
    }
}
