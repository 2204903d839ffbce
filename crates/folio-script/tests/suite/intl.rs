//! `Intl` over ICU4X: the facts a script relies on (fixed cases, with the refusals of what the
//! sandbox does not implement), then each constructor × locales × options × values against Node.

use super::web::{compare, in_node, in_sandbox, node};
use super::*;

const CASES: &[(&str, &str, &str)] = &[
    (
        "toLocaleString groups digits (issue 29's done-when)",
        "export default () => [(1234567.891).toLocaleString('en-US'), (1562).toLocaleString('en-US'), (1234.5).toLocaleString(), 12345n.toLocaleString('de-DE')]",
        r#"["1,234,567.891","1,562","1,234.5","12.345"]"#,
    ),
    (
        "a euro amount in German has the comma, the dot and a no-break space before € (as Node writes it)",
        "export default () => { const s = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(1234.5); return [s, s === '1.234,50\\u00a0€']; }",
        "[\"1.234,50\u{a0}€\",true]",
    ),
    (
        "the default locale is en-US and the default time zone UTC",
        "export default () => [new Intl.NumberFormat().resolvedOptions().locale, new Intl.DateTimeFormat().resolvedOptions().timeZone, new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleString()]",
        r#"["en-US","UTC","1/2/2024, 3:04:05 PM"]"#,
    ),
    (
        "options outside what the sandbox implements are refused by name",
        "export default () => [() => new Intl.NumberFormat('en', { style: 'unit', unit: 'meter' }), () => new Intl.DateTimeFormat('en', { timeZone: 'America/New_York' }), () => new Intl.NumberFormat('en', { notation: 'scientific' }), () => (5).toLocaleString('en', { style: 'currency' }), () => new Intl.DateTimeFormat('en', { timeStyle: 'long' })].map((f) => { try { f(); return 'made'; } catch (e) { return e.name + ': ' + e.message; } })",
        r#"["RangeError: Intl.NumberFormat: style 'unit' is not supported in the sandbox (supported: 'decimal', 'percent', 'currency')","RangeError: Intl.DateTimeFormat: timeZone 'America/New_York' is not supported in the sandbox, which has no time zone database (supported: 'UTC', 'Etc/GMT+5'-style fixed zones and offsets like '+05:30')","RangeError: Intl.NumberFormat: notation 'scientific' is not supported in the sandbox (supported: 'standard', 'compact')","TypeError: Intl.NumberFormat: style 'currency' needs a currency option (an ISO 4217 code like 'USD')","RangeError: Intl.DateTimeFormat: timeStyle 'long' names the time zone, which the sandbox does not write (supported: 'medium', 'short')"]"#,
    ),
    (
        "localeCompare sorts as the locale does, and numeric collation orders item2 before item10",
        "export default () => [['b', 'a', 'Ä', 'z'].sort((a, b) => a.localeCompare(b, 'de')), ['item10', 'item2'].sort(new Intl.Collator('en', { numeric: true }).compare), 'a'.localeCompare('A', 'en', { sensitivity: 'base' })]",
        r#"[["a","Ä","b","z"],["item2","item10"],0]"#,
    ),
    (
        "locales are canonicalized and a malformed tag is a RangeError",
        "export default () => { let e; try { Intl.getCanonicalLocales('en_US!'); } catch (x) { e = x.name; } return [Intl.getCanonicalLocales(['EN-us', 'de-de', 'en-US']), Intl.NumberFormat.supportedLocalesOf('fr-fr'), e]; }",
        r#"[["en-US","de-DE"],["fr-FR"],"RangeError"]"#,
    ),
    (
        "plural rules, lists and relative time",
        "export default () => [new Intl.PluralRules('en').select(1), new Intl.PluralRules('en', { type: 'ordinal' }).select(22), new Intl.ListFormat('en').format(['a', 'b', 'c']), new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-1, 'day'), new Intl.RelativeTimeFormat('en').format(3, 'hours')]",
        r#"["one","two","a, b, and c","yesterday","in 3 hours"]"#,
    ),
];

#[test]
fn intl_cases() {
    let mut failures = Vec::new();
    for (name, src, expect) in CASES {
        let got = outcome(&run(src));
        if !got.contains(expect) {
            failures.push(format!("{name}:\n  expected to contain: {expect}\n  got: {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The differential program: every constructor × locale × options × value, each answer the
/// formatted text (or the error's name). `compute` runs in the sandbox and in Node alike.
const PROGRAM: &str = r#"function compute() {
  const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'pt-BR', 'ja-JP', 'zh-CN', 'hi-IN', 'ar-EG'];
  const out = {};
  const run = (key, f) => { try { out[key] = f(); } catch (e) { out[key] = '!' + e.name; } };
  const NUMBER_OPTIONS = [{}, { maximumFractionDigits: 2 }, { minimumFractionDigits: 2 }, { minimumIntegerDigits: 3 }, { useGrouping: false },
    { style: 'percent' }, { style: 'percent', maximumFractionDigits: 1 }, { style: 'currency', currency: 'USD' }, { style: 'currency', currency: 'EUR' },
    { style: 'currency', currency: 'JPY' }, { style: 'currency', currency: 'EUR', currencyDisplay: 'code' }, { style: 'currency', currency: 'USD', currencyDisplay: 'name' },
    { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }, { notation: 'compact' }, { notation: 'compact', compactDisplay: 'long' },
    { signDisplay: 'always' }, { signDisplay: 'exceptZero' }, { maximumSignificantDigits: 3 }];
  const NUMBERS = [0, 1, -1, 1234.5, 1234567.891, 0.125, -0.5, 999999, 12.3456];
  for (const l of LOCALES) for (const o of NUMBER_OPTIONS) for (const v of NUMBERS)
    run(`Intl.NumberFormat|${l}|${JSON.stringify(o)}|${v}`, () => new Intl.NumberFormat(l, o).format(v));
  for (const l of LOCALES) for (const o of NUMBER_OPTIONS) for (const v of [-1234.5, 0.125, 1234567.891])
    run(`NumberFormat.formatToParts|${l}|${JSON.stringify(o)}|${v}`, () => new Intl.NumberFormat(l, o).formatToParts(v).map((p) => `${p.type}:${p.value}`).join(' '));
  const DATES = [Date.UTC(2024, 0, 2, 15, 4, 5), Date.UTC(1999, 11, 31, 23, 59, 59), Date.UTC(2024, 6, 14, 0, 30, 0)];
  const DATE_OPTIONS = [{}, { dateStyle: 'full' }, { dateStyle: 'long' }, { dateStyle: 'medium' }, { dateStyle: 'short' }, { timeStyle: 'short' },
    { timeStyle: 'medium' }, { dateStyle: 'medium', timeStyle: 'short' }, { year: 'numeric', month: 'long', day: 'numeric' }, { year: 'numeric', month: 'short' },
    { month: 'long' }, { weekday: 'long' }, { weekday: 'short', month: 'short', day: 'numeric' }, { year: 'numeric', month: '2-digit', day: '2-digit' },
    { hour: 'numeric', minute: '2-digit' }, { hour: '2-digit', minute: '2-digit', hour12: false }, { hour: 'numeric', hour12: true },
    { timeZone: 'Etc/GMT-2', hour: 'numeric', minute: 'numeric' }];
  for (const l of LOCALES) for (const o of DATE_OPTIONS) for (const d of DATES)
    run(`Intl.DateTimeFormat|${l}|${JSON.stringify(o)}|${d}`, () => new Intl.DateTimeFormat(l, { timeZone: 'UTC', ...o }).format(d));
  for (const l of LOCALES) for (const d of DATES) for (const m of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'])
    run(`Date.${m}|${l}|${d}`, () => new Date(d)[m](l, { timeZone: 'UTC' }));
  const PAIRS = [['a', 'b'], ['a', 'B'], ['ä', 'a'], ['a', 'á'], ['item2', 'item10'], ['résumé', 'resume'], ['Z', 'a'], ['ch', 'cz'], ['ö', 'z'], ['', 'a']];
  const COLLATOR_OPTIONS = [{}, { sensitivity: 'base' }, { sensitivity: 'accent' }, { sensitivity: 'case' }, { numeric: true }, { caseFirst: 'upper' }];
  for (const l of [...LOCALES, 'sv-SE', 'es']) for (const o of COLLATOR_OPTIONS) for (const [a, b] of PAIRS)
    run(`Intl.Collator|${l}|${JSON.stringify(o)}|${a}|${b}`, () => Math.sign(new Intl.Collator(l, o).compare(a, b)));
  for (const l of LOCALES) for (const type of ['cardinal', 'ordinal']) for (const v of [0, 1, 2, 3, 4, 5, 11, 21, 22, 101, 1.5])
    run(`Intl.PluralRules|${l}|${type}|${v}`, () => new Intl.PluralRules(l, { type }).select(v));
  for (const l of LOCALES) for (const type of ['conjunction', 'disjunction', 'unit']) for (const style of ['long', 'short', 'narrow']) for (const list of [['A', 'B', 'C'], ['A', 'B'], ['A']])
    run(`Intl.ListFormat|${l}|${type}|${style}|${list}`, () => new Intl.ListFormat(l, { type, style }).format(list));
  for (const l of LOCALES) for (const numeric of ['always', 'auto']) for (const style of ['long', 'short']) for (const unit of ['day', 'month', 'year', 'hour', 'week', 'quarter']) for (const v of [-1, 0, 1, 2, -3])
    run(`Intl.RelativeTimeFormat|${l}|${numeric}|${style}|${unit}|${v}`, () => new Intl.RelativeTimeFormat(l, { numeric, style }).format(v, unit));
  return out;
}"#;

#[test]
fn intl_agrees_with_node() {
    let Some(_) = node() else {
        println!("node is not installed: the differential part is skipped (scripts/install.sh installs it)");
        return;
    };
    let sandbox = in_sandbox(PROGRAM, 120_000);
    let node = in_node(PROGRAM);
    let disagreements = compare("Intl", &sandbox, &node, |k| k.split('|').next().unwrap_or(k).to_owned());
    let reason =
        |d: &str| NODE_DIFFERS.iter().find(|(parts, _)| parts.iter().all(|p| d.contains(p))).map(|(_, why)| *why);
    let mut named: Vec<(&str, usize)> = Vec::new();
    let mut unexpected = Vec::new();
    for d in &disagreements {
        match reason(d) {
            Some(why) => match named.iter_mut().find(|(w, _)| *w == why) {
                Some(entry) => entry.1 += 1,
                None => named.push((why, 1)),
            },
            None => unexpected.push(d.as_str()),
        }
    }
    println!("Intl: disagreements named in NODE_DIFFERS:");
    for (why, n) in &named {
        println!("  {n:>3} × {why}");
    }
    // An entry that no longer matches anything is stale: the table names only real differences.
    let stale: Vec<&str> =
        NODE_DIFFERS.iter().filter(|(_, why)| !named.iter().any(|(w, _)| w == why)).map(|(_, why)| *why).collect();
    assert!(stale.is_empty(), "NODE_DIFFERS entries that match no disagreement (remove them):\n{}", stale.join("\n"));
    assert!(
        unexpected.is_empty(),
        "{} disagreements outside the known ones:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}

/// Where the sandbox (ICU4X 2.4 and its compiled CLDR 48 data) and Node 20 (ICU 78, CLDR 48)
/// part. Both read the same CLDR release; these are differences of the two implementations
/// (ICU adapts a pattern to the skeleton asked for, ICU4X picks the locale's pattern for a
/// length) and of how ICU4X packs some data. A disagreement line matching every substring of an
/// entry is named by it; any other disagreement fails the test.
const NODE_DIFFERS: &[(&[&str], &str)] = &[
    (
        &["ar-EG|{\"style\":\"percent\""],
        "ar-EG percent: ICU4X's percent pattern keeps the Latin ‎%‎ where ICU writes the arab numbering system's ٪؜ (the digits agree)",
    ),
    (
        &["fr-FR|{\"style\":\"currency\",\"currency\":\"JPY\"}"],
        "fr/es/it JPY, it USD: ICU4X's currency symbols fall back to root's JP¥/US$ where ICU writes the code (JPY, USD)",
    ),
    (
        &["es-ES|{\"style\":\"currency\",\"currency\":\"JPY\"}"],
        "fr/es/it JPY, it USD: ICU4X's currency symbols fall back to root's JP¥/US$ where ICU writes the code (JPY, USD)",
    ),
    (
        &["it-IT|{\"style\":\"currency\",\"currency\":\"JPY\"}"],
        "fr/es/it JPY, it USD: ICU4X's currency symbols fall back to root's JP¥/US$ where ICU writes the code (JPY, USD)",
    ),
    (
        &["it-IT|{\"style\":\"currency\",\"currency\":\"USD\""],
        "fr/es/it JPY, it USD: ICU4X's currency symbols fall back to root's JP¥/US$ where ICU writes the code (JPY, USD)",
    ),
    (
        &["\"currencyDisplay\":\"name\"}", "米ドル"],
        "ja/zh currency names: ICU4X puts a space between the amount and the name (1.00 米ドル), ICU none",
    ),
    (
        &["\"currencyDisplay\":\"name\"}", "美元"],
        "ja/zh currency names: ICU4X puts a space between the amount and the name (1.00 米ドル), ICU none",
    ),
    (&["Intl.PluralRules|es-ES|ordinal|"], "es ordinals: ICU4X's rules give 1, 3, 21, 101 'one', ICU's give 'other'"),
    (&["Intl.ListFormat|hi-IN|", "|long|"], "hi lists: ICU4X's long pattern has no comma before और"),
    (
        &["|de-DE|{}|"],
        "numeric dates: ICU4X writes the locale's short date pattern (02.01.2024, 2024/01/02, 02-01-2024), ICU adapts it to the yMd skeleton (2.1.2024)",
    ),
    (
        &["|nl-NL|{}|"],
        "numeric dates: ICU4X writes the locale's short date pattern (02.01.2024, 2024/01/02, 02-01-2024), ICU adapts it to the yMd skeleton (2.1.2024)",
    ),
    (
        &["|ja-JP|{}|"],
        "numeric dates: ICU4X writes the locale's short date pattern (02.01.2024, 2024/01/02, 02-01-2024), ICU adapts it to the yMd skeleton (2.1.2024)",
    ),
    (
        &["Date.toLocale", "|de-DE|"],
        "numeric dates: ICU4X writes the locale's short date pattern (02.01.2024, 2024/01/02, 02-01-2024), ICU adapts it to the yMd skeleton (2.1.2024)",
    ),
    (
        &["Date.toLocale", "|nl-NL|"],
        "numeric dates: ICU4X writes the locale's short date pattern (02.01.2024, 2024/01/02, 02-01-2024), ICU adapts it to the yMd skeleton (2.1.2024)",
    ),
    (
        &["Date.toLocale", "|ja-JP|"],
        "numeric dates: ICU4X writes the locale's short date pattern (02.01.2024, 2024/01/02, 02-01-2024), ICU adapts it to the yMd skeleton (2.1.2024)",
    ),
    (
        &["sandbox \"00:30", "node \"0:30"],
        "hours before 10 in 24-hour locales: ICU4X keeps the pattern's two-digit HH (00:30), ICU adapts it to hour 'numeric' (0:30)",
    ),
    (
        &["sandbox \"01:59", "node \"1:59"],
        "hours before 10 in 24-hour locales: ICU4X keeps the pattern's two-digit HH (00:30), ICU adapts it to hour 'numeric' (0:30)",
    ),
    (
        &["sandbox \"02:30", "node \"2:30"],
        "hours before 10 in 24-hour locales: ICU4X keeps the pattern's two-digit HH (00:30), ICU adapts it to hour 'numeric' (0:30)",
    ),
    (
        &["es-ES|", ", 00:30", ", 0:30"],
        "hours before 10 in 24-hour locales: ICU4X keeps the pattern's two-digit HH (00:30), ICU adapts it to hour 'numeric' (0:30)",
    ),
    (
        &["it-IT|{\"hour\":\"numeric\",\"hour12\":true}"],
        "hours before 10 in 24-hour locales: ICU4X keeps the pattern's two-digit HH (00:30), ICU adapts it to hour 'numeric' (0:30)",
    ),
    (
        &["\"hour12\":false}|1720917000000"],
        "hour12: false at midnight: Node 20 resolves it to h24 for 12-hour locales and writes 24:30; ICU4X has no h24 and writes 00:30 (h23)",
    ),
    (
        &["de-DE|{\"hour\":\"numeric\",\"hour12\":true}"],
        "de hour12: ICU4X writes German's day periods (3 Uhr nachm.), ICU writes AM/PM (3 PM)",
    ),
    (
        &["{\"year\":\"numeric\",\"month\":\"short\"}"],
        "year + short month in de/ja/ar: ICU4X's medium year-month is numeric (01/2024), ICU picks the abbreviated month (Jan. 2024)",
    ),
    (
        &["Intl.DateTimeFormat|hi-IN|", "\"long\""],
        "hi long dates: ICU4X puts a comma before the year (2 जनवरी, 2024), ICU none",
    ),
    (
        &["Intl.DateTimeFormat|hi-IN|", "\"full\""],
        "hi long dates: ICU4X puts a comma before the year (2 जनवरी, 2024), ICU none",
    ),
];
