//! Tier 2: a judge model answers a scenario's questions about an artifact. It sees only the task,
//! the ground truth and the artifact's extracted text (never the transcript), is told the truth
//! is authoritative and to fail when unsure, and must reply with JSON verdicts. Whatever goes
//! wrong fails: an answer missing for a question, a reply that is not JSON, a provider that
//! cannot be reached.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::check::Outcome;
use crate::scenario::Question;

/// The judge's rules.
pub const JUDGE_SYSTEM: &str = "You grade one deliverable of an analyst's task. You are given the task, the ground truth (authoritative: it was generated with the files) and the deliverable's extracted text. Answer each question PASS or FAIL. A figure that differs from the ground truth fails. A statement the ground truth does not support fails. When you are unsure, FAIL. Reply with JSON only, exactly: {\"verdicts\":[{\"id\":\"…\",\"pass\":true|false,\"reason\":\"one sentence\"}]}";

/// Characters of artifact text the judge sees: the head 70% and the tail 25% of this budget
/// when the text is longer.
pub const TEXT_BUDGET: usize = 14_000;

/// `text` cut to the budget: its head and its tail, with a line saying what was left out.
pub fn clip(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= TEXT_BUDGET {
        return text.to_owned();
    }
    let head = TEXT_BUDGET * 70 / 100;
    let tail = TEXT_BUDGET * 25 / 100;
    let cut = chars.len() - head - tail;
    let mut out: String = chars[..head].iter().collect();
    out.push_str(&format!("\n[… {cut} characters left out …]\n"));
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// The judge's request.
pub fn request(task: &str, truth: &Value, artifact: &str, questions: &[Question]) -> folio_agent::ModelRequest {
    let asked: Vec<Value> = questions.iter().map(|q| serde_json::json!({"id": q.id, "question": q.question})).collect();
    let text = format!(
        "TASK\n{task}\n\nGROUND TRUTH\n{}\n\nDELIVERABLE (extracted text)\n{}\n\nQUESTIONS\n{}",
        serde_json::to_string_pretty(truth).unwrap_or_default(),
        clip(artifact),
        Value::Array(asked)
    );
    folio_agent::ModelRequest {
        system: JUDGE_SYSTEM.to_owned(),
        messages: vec![folio_agent::Message {
            role: folio_agent::Role::User,
            parts: vec![folio_agent::Part::Text { text }],
            compaction: false,
        }],
        tools: Vec::new(),
    }
}

#[derive(Deserialize)]
struct Verdicts {
    verdicts: Vec<Verdict>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
struct Verdict {
    id: String,
    pass: bool,
    #[serde(default)]
    reason: String,
}

/// The verdicts in `reply`, one per question: the JSON between the outermost braces; a question
/// it does not answer, or a reply with no JSON, fails.
pub fn verdicts(reply: &str, questions: &[Question]) -> Vec<Outcome> {
    let parsed: Option<Verdicts> = match (reply.find('{'), reply.rfind('}')) {
        (Some(a), Some(b)) if b > a => serde_json::from_str(&reply[a..=b]).ok(),
        _ => None,
    };
    questions
        .iter()
        .map(|q| {
            let name = format!("judge: {}", q.id);
            match parsed.as_ref().and_then(|p| p.verdicts.iter().find(|v| v.id == q.id)) {
                Some(v) => Outcome { name, passed: v.pass, detail: v.reason.clone() },
                None if parsed.is_none() => Outcome {
                    name,
                    passed: false,
                    detail: format!("the judge's reply is not the verdict JSON: {:?}", clip_line(reply)),
                },
                None => Outcome { name, passed: false, detail: "the judge did not answer this question".into() },
            }
        })
        .collect()
}

fn clip_line(text: &str) -> String {
    text.chars().take(160).collect()
}

/// Asks the judge; every failure becomes a failed verdict naming it. Returns the verdicts and
/// the call's cost in USD (when the provider's price is known).
pub async fn judge(
    client: &folio_agent::ModelClient,
    request: &folio_agent::ModelRequest,
    questions: &[Question],
    cancel: &CancellationToken,
) -> (Vec<Outcome>, Option<f64>) {
    match client.stream(request, cancel, &mut |_| {}).await {
        Ok(turn) => {
            let cost = client.provider().pricing.map(|p| p.cost(&turn.usage));
            (verdicts(&turn.message.text(), questions), cost)
        }
        Err(e) => {
            let detail = format!("the judge could not be asked: {e}");
            (
                questions
                    .iter()
                    .map(|q| Outcome { name: format!("judge: {}", q.id), passed: false, detail: detail.clone() })
                    .collect(),
                None,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::Question;

    fn qs() -> Vec<Question> {
        vec![Question { id: "a".into(), question: "?".into() }, Question { id: "b".into(), question: "?".into() }]
    }

    #[test]
    fn verdicts_come_from_the_outermost_braces_and_a_missing_answer_fails() {
        let v = super::verdicts("Sure. {\"verdicts\":[{\"id\":\"a\",\"pass\":true,\"reason\":\"ok\"}]} done", &qs());
        assert!(v[0].passed);
        assert!(!v[1].passed && v[1].detail.contains("did not answer"));
    }

    #[test]
    fn a_reply_without_json_fails_every_question() {
        let v = super::verdicts("I think it is fine", &qs());
        assert!(v.iter().all(|o| !o.passed && o.detail.contains("not the verdict JSON")));
    }

    #[test]
    fn a_long_text_keeps_its_head_and_tail() {
        let text = format!("HEAD{}TAIL", "x".repeat(50_000));
        let c = super::clip(&text);
        assert!(c.starts_with("HEAD") && c.ends_with("TAIL") && c.contains("characters left out"));
        assert!(c.chars().count() < super::TEXT_BUDGET + 100);
    }
}
