//! Glob patterns over VFS file paths: `**/` is zero or more whole segments, a trailing `**` is
//! anything, `*` stays within one segment, `?` is one character that is not `/`. Everything else is
//! literal (no braces, no classes). Patterns are anchored at both ends and get a leading `/`.

/// A compiled glob.
#[derive(Debug, Clone)]
pub struct Glob {
    tokens: Vec<Token>,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Literal(char),
    AnySegments, // `**/`: zero or more whole segments
    AnyDeep,     // `**` not followed by `/`: anything
    AnyInSegment,
    OneChar,
}

impl Glob {
    /// Compiles `pattern`; it cannot fail.
    pub fn new(pattern: &str) -> Glob {
        let pattern = if pattern.starts_with('/') { pattern.to_owned() } else { format!("/{pattern}") };
        let chars: Vec<char> = pattern.chars().collect();
        let mut tokens = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '*' if chars.get(i + 1) == Some(&'*') => {
                    if chars.get(i + 2) == Some(&'/') {
                        tokens.push(Token::AnySegments);
                        i += 3;
                    } else {
                        tokens.push(Token::AnyDeep);
                        i += 2;
                    }
                }
                '*' => {
                    tokens.push(Token::AnyInSegment);
                    i += 1;
                }
                '?' => {
                    tokens.push(Token::OneChar);
                    i += 1;
                }
                c => {
                    tokens.push(Token::Literal(c));
                    i += 1;
                }
            }
        }
        Glob { tokens }
    }

    /// True when the whole of `path` matches.
    pub fn matches(&self, path: &str) -> bool {
        let chars: Vec<char> = path.chars().collect();
        matches_at(&self.tokens, &chars)
    }
}

fn matches_at(tokens: &[Token], s: &[char]) -> bool {
    let Some((first, rest)) = tokens.split_first() else {
        return s.is_empty();
    };
    match first {
        Token::Literal(c) => s.first() == Some(c) && matches_at(rest, &s[1..]),
        Token::OneChar => s.first().is_some_and(|c| *c != '/') && matches_at(rest, &s[1..]),
        Token::AnyInSegment => {
            for i in 0..=s.len() {
                if matches_at(rest, &s[i..]) {
                    return true;
                }
                if i < s.len() && s[i] == '/' {
                    break;
                }
            }
            false
        }
        Token::AnyDeep => (0..=s.len()).any(|i| matches_at(rest, &s[i..])),
        Token::AnySegments => {
            // Zero segments, or skip past each following `/`.
            if matches_at(rest, s) {
                return true;
            }
            s.iter().enumerate().any(|(i, c)| *c == '/' && matches_at(rest, &s[i + 1..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Glob;

    fn check(pattern: &str, path: &str, expect: bool) {
        assert_eq!(Glob::new(pattern).matches(path), expect, "{pattern} vs {path}");
    }

    #[test]
    fn table() {
        check("/out/*.pdf", "/out/a.pdf", true);
        check("/out/*.pdf", "/out/x/a.pdf", false);
        check("out/*.pdf", "/out/a.pdf", true);
        check("/**/*.js", "/a.js", true);
        check("/**/*.js", "/scripts/lib/a.js", true);
        check("/scripts/**", "/scripts/lib/a.js", true);
        check("/scripts/**/x.js", "/scripts/x.js", true);
        check("/a?c", "/abc", true);
        check("/a?c", "/a/c", false);
        check("/a.csv", "/aXcsv", false);
        check("/**", "/anything/at/all", true);
    }
}
