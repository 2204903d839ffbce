//! A Server-Sent Events decoder: bytes in, `(event, data)` pairs out, across chunk boundaries.
//!
//! The SSE grammar lets a reader ignore fields it does not know. No provider sends any besides
//! `event`, `data`, `id` and `retry`, so a line naming another field is almost always something
//! that is not SSE at all (an HTML error page, a JSON error body, a proxy's text): the decoder
//! keeps the first such line for [`SseDecoder::take_stray`], and the client names it.

/// One SSE event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if any.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// Incremental decoder.
#[derive(Debug, Default)]
pub struct SseDecoder {
    buffer: Vec<u8>,
    event: Option<String>,
    data: Vec<String>,
    stray: Option<String>,
}

impl SseDecoder {
    /// Feeds a chunk and returns the events it completed.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        self.buffer.extend_from_slice(chunk);
        let mut out = Vec::new();
        while let Some(pos) = self.buffer.iter().position(|b| *b == b'\n') {
            let mut line: Vec<u8> = self.buffer.drain(..=pos).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let line = String::from_utf8_lossy(&line).into_owned();
            if line.is_empty() {
                if !self.data.is_empty() || self.event.is_some() {
                    out.push(SseEvent { event: self.event.take(), data: self.data.join("\n") });
                    self.data.clear();
                }
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f.to_owned(), v.strip_prefix(' ').unwrap_or(v).to_owned()),
                None => (line.clone(), String::new()),
            };
            match field.as_str() {
                "event" => self.event = Some(value),
                "data" => self.data.push(value),
                "id" | "retry" => {}
                _ => {
                    if self.stray.is_none() {
                        self.stray = Some(line.chars().take(200).collect());
                    }
                }
            }
        }
        out
    }

    /// The first line seen that is not an SSE field, once.
    pub fn take_stray(&mut self) -> Option<String> {
        self.stray.take()
    }

    /// Whatever a stream that ended without a final blank line left behind.
    pub fn finish(&mut self) -> Option<SseEvent> {
        if !self.buffer.is_empty() {
            let rest = std::mem::take(&mut self.buffer);
            let mut events = self.feed(&[rest.as_slice(), b"\n\n"].concat());
            return events.pop();
        }
        if self.data.is_empty() {
            return None;
        }
        Some(SseEvent { event: self.event.take(), data: std::mem::take(&mut self.data).join("\n") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_split_across_chunks() {
        let mut d = SseDecoder::default();
        let mut got = d.feed(b"event: a\ndata: {\"x\"");
        assert!(got.is_empty());
        got.extend(d.feed(b":1}\r\n\r\n: comment\ndata: two\ndata: lines\n\n"));
        assert_eq!(
            got,
            vec![
                SseEvent { event: Some("a".into()), data: "{\"x\":1}".into() },
                SseEvent { event: None, data: "two\nlines".into() },
            ]
        );
        assert_eq!(d.feed(b"data: tail"), vec![]);
        assert_eq!(d.finish(), Some(SseEvent { event: None, data: "tail".into() }));
        assert_eq!(d.take_stray(), None, "comments and known fields are SSE");
        d.feed(b"id: 7\nretry: 100\n<html>Bad Gateway</html>\ndata: x\n\n");
        assert_eq!(d.take_stray().as_deref(), Some("<html>Bad Gateway</html>"));
    }
}
