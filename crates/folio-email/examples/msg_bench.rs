//! Prints how many times a second the corpus Outlook message (or the file given) is parsed —
//! sender, recipients, dates, bodies with the RTF decompressed, attachments and the embedded
//! message. `cargo run --release -p folio-email --example msg_bench [-- file.msg]`

use std::time::Instant;

fn main() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/work/shared/corpus/documents/outlook-email-with-pdf-attachment.msg".into());
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let limits = folio_email::Limits::default();
    let mut n = 0u32;
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < 2.0 {
        folio_email::ops::parse("/bench.msg", &bytes, &limits).map_err(|e| e.to_string())?;
        n += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{path}: {} bytes, {n} parses in {secs:.2} s = {:.0} parses/s ({:.3} ms each)",
        bytes.len(),
        f64::from(n) / secs,
        secs * 1000.0 / f64::from(n)
    );
    Ok(())
}
