//! Reading a doctor fix line as a person follows it: which variables it says to export, set or
//! unset, and which packages it says to install. Shared by the doctor and ask tests.
#![allow(dead_code, clippy::panic)]

/// The values a person fills a fix line's placeholders with, by how the placeholder starts.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("<your key", "sk-test-key"),
    ("<a model from", "llama3.2"),
    ("<a model loaded", "qwen2.5-7b-instruct"),
    // A provider that runs locally, so the next fix line is about a model, not a key.
    ("<one of", "ollama"),
];

fn fill(value: &str) -> String {
    if !value.starts_with('<') {
        return value.to_string();
    }
    let known = PLACEHOLDERS.iter().find(|(prefix, _)| value.starts_with(prefix));
    match known {
        Some((_, v)) => {
            if value.starts_with("<one of") {
                assert!(value.contains(v), "{value} offers {v}");
            }
            (*v).to_string()
        }
        None => panic!("the fix line has a placeholder this test cannot fill: {value}"),
    }
}

/// Each `export A=x B=<…>` group of `fix`, with placeholders filled, in order.
pub fn exports(fix: &str) -> Vec<Vec<(String, String)>> {
    let mut groups = Vec::new();
    for (at, _) in fix.match_indices("export ") {
        let mut rest = &fix[at + "export ".len()..];
        let mut group = Vec::new();
        loop {
            let rest_trim = rest.trim_start_matches(' ');
            let Some((var, after)) = rest_trim.split_once('=') else { break };
            if var.is_empty() || !var.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') {
                break;
            }
            let (value, tail) = if after.starts_with('<') {
                let close = after.find('>').expect("a placeholder closes");
                (&after[..=close], &after[close + 1..])
            } else {
                let end = after.find([' ', ')', ',', ';']).unwrap_or(after.len());
                (&after[..end], &after[end..])
            };
            group.push((var.to_string(), fill(value)));
            rest = tail;
            if !rest.starts_with(' ') {
                break;
            }
        }
        if !group.is_empty() {
            groups.push(group);
        }
    }
    groups
}

/// The first export group that sets `var` (the first group when `var` is empty).
pub fn export_group(fix: &str, var: &str) -> Vec<(String, String)> {
    exports(fix)
        .into_iter()
        .find(|g| var.is_empty() || g.iter().any(|(v, _)| v == var))
        .unwrap_or_else(|| panic!("the fix line exports no {var}: {fix}"))
}

/// The variable a fix line says to `set VAR to …` or `point VAR at …`.
pub fn variable_to_set(fix: &str) -> Option<String> {
    for marker in ["set ", "point "] {
        for (at, _) in fix.match_indices(marker) {
            let var: String = fix[at + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if var.len() > 3 && var.contains('_') {
                return Some(var);
            }
        }
    }
    None
}

/// True when the fix line offers to unset the variable it names.
pub fn says_unset(fix: &str) -> bool {
    fix.contains("unset it")
}

/// The packages of every `apt-get install` in `fix` (options dropped).
pub fn apt_packages(fix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in fix.match_indices("apt-get install ") {
        let rest = &fix[at + "apt-get install ".len()..];
        let end = rest.find(['(', ';', ',']).unwrap_or(rest.len());
        out.extend(rest[..end].split_whitespace().filter(|w| !w.starts_with('-')).map(str::to_string));
    }
    out
}

#[test]
fn fix_lines_are_read_as_a_person_reads_them() {
    let fix = "export ANTHROPIC_API_KEY=<your key>   (or, with no key, a local model: export FOLIO_PROVIDER=ollama FOLIO_MODEL=<a model from `ollama list`>)";
    assert_eq!(
        exports(fix),
        [
            vec![("ANTHROPIC_API_KEY".to_string(), "sk-test-key".to_string())],
            vec![("FOLIO_PROVIDER".into(), "ollama".into()), ("FOLIO_MODEL".into(), "llama3.2".into())]
        ]
    );
    assert_eq!(export_group(fix, "FOLIO_MODEL")[0].0, "FOLIO_PROVIDER");
    let tool = "point FOLIO_FFMPEG_PATH at the ffmpeg executable, or unset it to search PATH; to install it: sudo apt-get install ffmpeg";
    assert_eq!(variable_to_set(tool).as_deref(), Some("FOLIO_FFMPEG_PATH"));
    assert!(says_unset(tool));
    assert_eq!(apt_packages(tool), ["ffmpeg"]);
    let office = "sudo apt-get install --no-install-recommends libreoffice-writer-nogui libreoffice-calc-nogui (or set FOLIO_SOFFICE_PATH to soffice)";
    assert_eq!(apt_packages(office), ["libreoffice-writer-nogui", "libreoffice-calc-nogui"]);
    assert_eq!(variable_to_set(office).as_deref(), Some("FOLIO_SOFFICE_PATH"));
    assert!(!says_unset(office));
}
