//! `Intl`'s native half: ECMA-402 formatting answered by ICU4X and its compiled CLDR data.
//!
//! The JavaScript layer (`js/intl.js`) reads and checks the options bags (an option outside what
//! is listed here is refused there with a `RangeError` naming it), resolves the defaults
//! ECMA-402 gives them, and calls one function per service with the resolved options as JSON:
//!
//! - **numbers** (`number`): the value becomes a `fixed_decimal` `Decimal` from its shortest
//!   round-trip digits (as V8's ICU does), is rounded half-expand to the fraction or significant
//!   digits asked for, padded, signed, and written by `DecimalFormatter` (grouping `auto`,
//!   `always`, `min2` or none). `percent` and `currency` wrap that text in the locale's pattern:
//!   ICU4X's percent and currency formatters write the same value, and the run of digits they
//!   wrote is replaced by ours, so the pattern, the symbol and its spacing are CLDR's while the
//!   digits follow the options. `compact` is `CompactDecimalFormatter` (short or long).
//! - **dates** (`date`): the JavaScript layer turns the time zone into a fixed offset; the local
//!   wall time is computed here and written by a `DateTimeFormatter` built from the component
//!   options or the date/time styles through `FieldSetBuilder` (ICU4X's own bridge from
//!   ECMA-402-like options), in the locale's default calendar.
//! - **collation** (`compare`), **plural rules** (`plural`), **lists** (`list`) and **relative
//!   time** (`relative`) map their options one to one.
//!
//! Every function returns text or throws a `RangeError` saying what ICU4X refused; nothing falls
//! back to a guess.

use fixed_decimal::{Decimal, FloatPrecision, Sign, SignDisplay, SignedRoundingMode, UnsignedRoundingMode};
use icu::collator::options::{AlternateHandling, CaseLevel, CollatorOptions, Strength};
use icu::collator::preferences::{CollationCaseFirst, CollationNumericOrdering};
use icu::collator::{Collator, CollatorPreferences};
use icu::datetime::fieldsets::builder::{DateFields, FieldSetBuilder};
use icu::datetime::options::{Alignment, Length, TimePrecision, YearStyle};
use icu::datetime::{DateTimeFormatter, DateTimeFormatterPreferences};
use icu::decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu::decimal::{CompactDecimalFormatter, DecimalFormatter};
use icu::list::ListFormatter;
use icu::list::options::{ListFormatterOptions, ListLength};
use icu::locale::preferences::extensions::unicode::keywords::{CurrencyType, HourCycle};
use icu::locale::{Locale, LocaleCanonicalizer};
use icu::plurals::{PluralCategory, PluralRules};
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_experimental::dimension::percent::formatter::PercentFormatter;
use icu_experimental::relativetime::RelativeTimeFormatter;
use icu_experimental::relativetime::options::{Numeric, RelativeTimeFormatterOptions};
use rquickjs::{Ctx, Exception, Function, Object};
use serde::Deserialize;

/// What a native call refuses: the message of the `RangeError` the script sees.
type Refusal = String;

/// The canonical form of a BCP 47 tag (`EN-us` → `en-US`, aliases replaced).
pub(crate) fn canonical(tag: &str) -> Result<String, Refusal> {
    let mut locale = Locale::try_from_str(tag)
        .map_err(|e| format!("Incorrect locale information provided: \"{tag}\" is not a BCP 47 language tag ({e})"))?;
    LocaleCanonicalizer::new_extended().canonicalize(&mut locale);
    Ok(locale.to_string())
}

fn locale(tag: &str) -> Result<Locale, Refusal> {
    Locale::try_from_str(tag).map_err(|e| format!("Intl: \"{tag}\" is not a BCP 47 language tag ({e})"))
}

fn data<E: std::fmt::Display>(what: &'static str, tag: &str) -> impl FnOnce(E) -> Refusal {
    let tag = tag.to_owned();
    move |e| format!("Intl: ICU4X has no {what} data for \"{tag}\" ({e})")
}

/// `Intl.NumberFormat`'s options, resolved by the layer.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NumberOptions {
    style: String,
    currency: Option<String>,
    currency_display: String,
    minimum_integer_digits: i16,
    minimum_fraction_digits: i16,
    maximum_fraction_digits: i16,
    minimum_significant_digits: Option<i16>,
    maximum_significant_digits: Option<i16>,
    use_grouping: String,
    notation: String,
    compact_display: String,
    sign_display: String,
}

const HALF_EXPAND: SignedRoundingMode = SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand);

/// The value rounded, padded and signed as the options say (before percent scaling is undone).
fn rounded(value: f64, o: &NumberOptions) -> Result<Decimal, Refusal> {
    let mut d = Decimal::try_from_f64(value, FloatPrecision::RoundTrip)
        .map_err(|e| format!("Intl.NumberFormat: {value} cannot be written as a decimal ({e:?})"))?;
    if o.style == "percent" {
        d.multiply_pow10(2);
    }
    if let (Some(min), Some(max)) = (o.minimum_significant_digits, o.maximum_significant_digits) {
        let top = if d.absolute.is_zero() { 0 } else { d.absolute.nonzero_magnitude_start() };
        d.round_with_mode(top - max + 1, HALF_EXPAND);
        let top = if d.absolute.is_zero() { 0 } else { d.absolute.nonzero_magnitude_start() };
        d.absolute.trim_end();
        d.absolute.pad_end(top - min + 1);
    } else {
        d.round_with_mode(-o.maximum_fraction_digits, HALF_EXPAND);
        d.absolute.trim_end();
        d.absolute.pad_end(-o.minimum_fraction_digits);
    }
    d.absolute.pad_start(o.minimum_integer_digits);
    d.apply_sign_display(sign_display(&o.sign_display));
    Ok(d)
}

fn sign_display(name: &str) -> SignDisplay {
    match name {
        "always" => SignDisplay::Always,
        "never" => SignDisplay::Never,
        "exceptZero" => SignDisplay::ExceptZero,
        "negative" => SignDisplay::Negative,
        _ => SignDisplay::Auto,
    }
}

fn grouping(name: &str) -> GroupingStrategy {
    match name {
        "always" => GroupingStrategy::Always,
        "min2" => GroupingStrategy::Min2,
        "false" => GroupingStrategy::Never,
        _ => GroupingStrategy::Auto,
    }
}

/// The span of `text` from its first digit to its last (digits in any numbering system).
fn digit_span(text: &str) -> Option<(usize, usize)> {
    let start = text.char_indices().find(|(_, c)| c.is_numeric())?.0;
    let (last, c) = text.char_indices().rev().find(|(_, c)| c.is_numeric())?;
    Some((start, last + c.len_utf8()))
}

/// `pattern_text` (a CLDR pattern already filled with some rendering of the value) with its run
/// of digits replaced by `digits`.
fn splice(pattern_text: &str, digits: &str, what: &str) -> Result<String, Refusal> {
    let (a, b) = digit_span(pattern_text)
        .ok_or_else(|| format!("Intl.NumberFormat: the {what} pattern \"{pattern_text}\" has no number in it"))?;
    Ok(format!("{}{digits}{}", &pattern_text[..a], &pattern_text[b..]))
}

pub(crate) fn number(tag: &str, o: &NumberOptions, value: f64) -> Result<String, Refusal> {
    let loc = locale(tag)?;
    let d = rounded(value, o)?;
    if o.notation == "compact" {
        let prefs = (&loc).into();
        let f = if o.compact_display == "long" {
            CompactDecimalFormatter::try_new_long(prefs, Default::default())
        } else {
            CompactDecimalFormatter::try_new_short(prefs, Default::default())
        }
        .map_err(data("compact number", tag))?;
        let mut d = Decimal::try_from_f64(value, FloatPrecision::RoundTrip)
            .map_err(|e| format!("Intl.NumberFormat: {value} cannot be written as a decimal ({e:?})"))?;
        // ECMA-402's compact rounding, half-expand: whole numbers of the compact unit when
        // they have two digits or more, else two significant digits (ICU4X would round the
        // same places half-even).
        if !d.absolute.is_zero() {
            let top = d.absolute.nonzero_magnitude_start();
            let exponent = i16::from(f.compact_exponent_for_magnitude(top));
            let position = if top - exponent >= 1 { exponent } else { top - 1 };
            d.round_with_mode(position, HALF_EXPAND);
            d.absolute.trim_end();
        }
        d.apply_sign_display(sign_display(&o.sign_display));
        return Ok(f.format(&d).to_string());
    }
    let options: DecimalFormatterOptions = grouping(&o.use_grouping).into();
    let f = DecimalFormatter::try_new((&loc).into(), options).map_err(data("number", tag))?;
    let mut abs = d.clone();
    abs.sign = Sign::None;
    let digits = f.format(&abs).to_string();
    match o.style.as_str() {
        "percent" => {
            let p = PercentFormatter::try_new((&loc).into(), Default::default()).map_err(data("percent", tag))?;
            splice(&p.format(&d).to_string(), &digits, "percent")
        }
        "currency" => {
            let code = o.currency.as_deref().unwrap_or("");
            let currency = CurrencyType::try_from_str(&code.to_ascii_lowercase())
                .map_err(|_| format!("Intl.NumberFormat: \"{code}\" is not a currency code"))?;
            let prefs = (&loc).into();
            let f = match o.currency_display.as_str() {
                "code" => CurrencyFormatter::try_new_code(prefs, currency, Default::default()),
                "name" => CurrencyFormatter::try_new_name(prefs, currency),
                "narrowSymbol" => CurrencyFormatter::try_new_symbol_narrow(prefs, currency, Default::default()),
                _ => CurrencyFormatter::try_new_symbol(prefs, currency, Default::default()),
            }
            .map_err(data("currency", tag))?;
            splice(&f.format_fixed_decimal(&d).to_string(), &digits, "currency")
        }
        _ => Ok(f.format(&d).to_string()),
    }
}

/// `Intl.DateTimeFormat`'s options, resolved by the layer (the time zone as a fixed offset).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DateOptions {
    date_style: Option<String>,
    time_style: Option<String>,
    weekday: Option<String>,
    year: Option<String>,
    month: Option<String>,
    day: Option<String>,
    hour: Option<String>,
    minute: Option<String>,
    second: Option<String>,
    hour_cycle: Option<String>,
    offset_minutes: i64,
}

/// The proleptic Gregorian (year, month, day) of a day count from 1970-01-01.
fn civil(days: i64) -> (i32, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year as i32, month as u8, day as u8)
}

fn length(width: &str) -> Length {
    match width {
        "long" | "full" => Length::Long,
        "short" | "medium" => Length::Medium,
        _ => Length::Short,
    }
}

fn date_builder(o: &DateOptions) -> Result<FieldSetBuilder, Refusal> {
    let mut b = FieldSetBuilder::new();
    if o.date_style.is_some() || o.time_style.is_some() {
        let style = o.date_style.as_deref().or(o.time_style.as_deref()).unwrap_or("medium");
        b.length = Some(match style {
            "full" | "long" => Length::Long,
            "medium" => Length::Medium,
            _ => Length::Short,
        });
        b.date_fields = o.date_style.as_deref().map(|s| if s == "full" { DateFields::YMDE } else { DateFields::YMD });
        b.time_precision = o.time_style.as_deref().map(|_| TimePrecision::Second);
        if o.time_style.as_deref() == Some("short") {
            b.time_precision = Some(TimePrecision::Minute);
        }
        return Ok(b);
    }
    let (y, m, d, e) = (o.year.is_some(), o.month.is_some(), o.day.is_some(), o.weekday.is_some());
    b.date_fields = match (y, m, d, e) {
        (false, false, false, false) => None,
        (false, false, true, false) => Some(DateFields::D),
        (false, true, true, false) => Some(DateFields::MD),
        (true, true, true, false) => Some(DateFields::YMD),
        (false, false, true, true) => Some(DateFields::DE),
        (false, true, true, true) => Some(DateFields::MDE),
        (true, true, true, true) => Some(DateFields::YMDE),
        (false, false, false, true) => Some(DateFields::E),
        (false, true, false, false) => Some(DateFields::M),
        (true, true, false, false) => Some(DateFields::YM),
        (true, false, false, false) => Some(DateFields::Y),
        _ => {
            return Err("Intl.DateTimeFormat: this combination of year, month, day and weekday is not supported; \
                 use one of day, month+day, year+month+day, year+month, month, year, weekday, each optionally with weekday"
                .into());
        }
    };
    let width = o.month.as_deref().or(o.weekday.as_deref()).unwrap_or("numeric");
    b.length = Some(length(width));
    if o.year.is_some() {
        b.year_style = Some(if o.year.as_deref() == Some("2-digit") { YearStyle::Auto } else { YearStyle::Full });
    }
    // Minutes and seconds are two digits whatever the option; month, day and hour pad only
    // when asked to.
    let two_digit = [&o.month, &o.day, &o.hour].iter().any(|f| f.as_deref() == Some("2-digit"));
    if two_digit {
        b.alignment = Some(Alignment::Column);
    }
    b.time_precision = match (o.hour.is_some(), o.minute.is_some(), o.second.is_some()) {
        (false, false, false) => None,
        (true, false, false) => Some(TimePrecision::Hour),
        (true, true, false) => Some(TimePrecision::Minute),
        (true, true, true) => Some(TimePrecision::Second),
        _ => {
            return Err(
                "Intl.DateTimeFormat: minute or second without hour (or second without minute) is not supported; \
                 ask for hour, hour+minute or hour+minute+second"
                    .into(),
            );
        }
    };
    Ok(b)
}

pub(crate) fn date(tag: &str, o: &DateOptions, epoch_ms: f64) -> Result<String, Refusal> {
    if !epoch_ms.is_finite() {
        return Err("Invalid time value".into());
    }
    let loc = locale(tag)?;
    let local_ms = epoch_ms as i64 + o.offset_minutes * 60_000;
    let days = local_ms.div_euclid(86_400_000);
    let ms = local_ms.rem_euclid(86_400_000);
    let (year, month, day) = civil(days);
    let date = icu::calendar::Date::try_new_iso(year, month, day)
        .map_err(|e| format!("Intl.DateTimeFormat: the date {year}-{month}-{day} is out of range ({e})"))?;
    let time = icu::time::Time::try_new(
        (ms / 3_600_000) as u8,
        (ms / 60_000 % 60) as u8,
        (ms / 1000 % 60) as u8,
        (ms % 1000) as u32 * 1_000_000,
    )
    .map_err(|e| format!("Intl.DateTimeFormat: bad time of day ({e})"))?;
    let mut prefs = DateTimeFormatterPreferences::from(&loc);
    prefs.hour_cycle = match o.hour_cycle.as_deref() {
        Some("h11") => Some(HourCycle::H11),
        Some("h12") => Some(HourCycle::H12),
        // ICU4X has no h24 (hours 1–24); it writes h23.
        Some("h23") | Some("h24") => Some(HourCycle::H23),
        // `hour12: true`: the locale's own 12-hour cycle when it has one, else h11 (0–11), as
        // ECMA-402 and V8 resolve it.
        Some("hour12") => Some(if twelve_hour(&loc)? { HourCycle::H12 } else { HourCycle::H11 }),
        _ => None,
    };
    let fields = date_builder(o)?
        .build_composite_datetime()
        .map_err(|e| format!("Intl.DateTimeFormat: ICU4X cannot build this set of fields ({e})"))?;
    let f = DateTimeFormatter::try_new(prefs, fields).map_err(data("date and time", tag))?;
    // V8 writes a plain space where CLDR puts a narrow no-break space (before AM/PM), so that
    // text scripts compare and parse keeps working; the sandbox does the same.
    Ok(f.format(&icu::time::DateTime { date, time }).to_string().replace('\u{202f}', " "))
}

/// Whether the locale's default hour cycle is a 12-hour one: its hour-only time of 13:00 is
/// the same text as with h12 forced.
fn twelve_hour(loc: &Locale) -> Result<bool, Refusal> {
    let mut b = FieldSetBuilder::new();
    b.time_precision = Some(TimePrecision::Hour);
    let fields = b.build_composite_datetime().map_err(|e| format!("Intl.DateTimeFormat: {e}"))?;
    let at = icu::time::DateTime {
        date: icu::calendar::Date::try_new_iso(2000, 1, 1).map_err(|e| format!("Intl.DateTimeFormat: {e}"))?,
        time: icu::time::Time::try_new(13, 0, 0, 0).map_err(|e| format!("Intl.DateTimeFormat: {e}"))?,
    };
    let write = |cycle: Option<HourCycle>| -> Result<String, Refusal> {
        let mut prefs = DateTimeFormatterPreferences::from(loc);
        prefs.hour_cycle = cycle;
        let f = DateTimeFormatter::try_new(prefs, fields).map_err(data("date and time", &loc.to_string()))?;
        Ok(f.format(&at).to_string())
    };
    Ok(write(None)? == write(Some(HourCycle::H12))?)
}

/// `Intl.Collator`'s options, resolved by the layer.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CollatorOpts {
    sensitivity: String,
    numeric: bool,
    case_first: String,
    ignore_punctuation: bool,
}

pub(crate) fn compare(tag: &str, o: &CollatorOpts, a: &str, b: &str) -> Result<i32, Refusal> {
    let loc = locale(tag)?;
    let mut prefs = CollatorPreferences::from(&loc);
    if o.numeric {
        prefs.numeric_ordering = Some(CollationNumericOrdering::True);
    }
    prefs.case_first = match o.case_first.as_str() {
        "upper" => Some(CollationCaseFirst::Upper),
        "lower" => Some(CollationCaseFirst::Lower),
        _ => prefs.case_first,
    };
    let mut options = CollatorOptions::default();
    let (strength, case_level) = match o.sensitivity.as_str() {
        "base" => (Strength::Primary, CaseLevel::Off),
        "accent" => (Strength::Secondary, CaseLevel::Off),
        "case" => (Strength::Primary, CaseLevel::On),
        _ => (Strength::Tertiary, CaseLevel::Off),
    };
    options.strength = Some(strength);
    options.case_level = Some(case_level);
    if o.ignore_punctuation {
        options.alternate_handling = Some(AlternateHandling::Shifted);
    }
    let c = Collator::try_new(prefs, options).map_err(data("collation", tag))?;
    Ok(c.compare(a, b) as i32)
}

pub(crate) fn plural(
    tag: &str,
    ordinal: bool,
    value: f64,
    min_fraction: i16,
    max_fraction: i16,
) -> Result<String, Refusal> {
    let loc = locale(tag)?;
    let rules = if ordinal {
        PluralRules::try_new_ordinal((&loc).into())
    } else {
        PluralRules::try_new_cardinal((&loc).into())
    }
    .map_err(data("plural rules", tag))?;
    let mut d = Decimal::try_from_f64(value.abs(), FloatPrecision::RoundTrip)
        .map_err(|e| format!("Intl.PluralRules: {value} cannot be written as a decimal ({e:?})"))?;
    d.round_with_mode(-max_fraction, HALF_EXPAND);
    d.absolute.trim_end();
    d.absolute.pad_end(-min_fraction);
    Ok(match rules.category_for(&d) {
        PluralCategory::Zero => "zero",
        PluralCategory::One => "one",
        PluralCategory::Two => "two",
        PluralCategory::Few => "few",
        PluralCategory::Many => "many",
        PluralCategory::Other => "other",
    }
    .into())
}

pub(crate) fn list(tag: &str, kind: &str, style: &str, items: &[String]) -> Result<String, Refusal> {
    let loc = locale(tag)?;
    let length = match style {
        "short" => ListLength::Short,
        "narrow" => ListLength::Narrow,
        _ => ListLength::Wide,
    };
    let options = ListFormatterOptions::default().with_length(length);
    let f = match kind {
        "disjunction" => ListFormatter::try_new_or((&loc).into(), options),
        "unit" => ListFormatter::try_new_unit((&loc).into(), options),
        _ => ListFormatter::try_new_and((&loc).into(), options),
    }
    .map_err(data("list", tag))?;
    Ok(f.format_to_string(items.iter().map(String::as_str)))
}

pub(crate) fn relative(tag: &str, style: &str, numeric: &str, value: f64, unit: &str) -> Result<String, Refusal> {
    let loc = locale(tag)?;
    let prefs = (&loc).into();
    let mut options = RelativeTimeFormatterOptions::default();
    if numeric == "auto" {
        options = options.with_numeric(Numeric::Auto);
    }
    type Ctor = fn(
        icu_experimental::relativetime::RelativeTimeFormatterPreferences,
        RelativeTimeFormatterOptions,
    ) -> Result<RelativeTimeFormatter, icu_provider::DataError>;
    let table: [(&str, [Ctor; 3]); 8] = [
        (
            "second",
            [
                RelativeTimeFormatter::try_new_long_second,
                RelativeTimeFormatter::try_new_short_second,
                RelativeTimeFormatter::try_new_narrow_second,
            ],
        ),
        (
            "minute",
            [
                RelativeTimeFormatter::try_new_long_minute,
                RelativeTimeFormatter::try_new_short_minute,
                RelativeTimeFormatter::try_new_narrow_minute,
            ],
        ),
        (
            "hour",
            [
                RelativeTimeFormatter::try_new_long_hour,
                RelativeTimeFormatter::try_new_short_hour,
                RelativeTimeFormatter::try_new_narrow_hour,
            ],
        ),
        (
            "day",
            [
                RelativeTimeFormatter::try_new_long_day,
                RelativeTimeFormatter::try_new_short_day,
                RelativeTimeFormatter::try_new_narrow_day,
            ],
        ),
        (
            "week",
            [
                RelativeTimeFormatter::try_new_long_week,
                RelativeTimeFormatter::try_new_short_week,
                RelativeTimeFormatter::try_new_narrow_week,
            ],
        ),
        (
            "month",
            [
                RelativeTimeFormatter::try_new_long_month,
                RelativeTimeFormatter::try_new_short_month,
                RelativeTimeFormatter::try_new_narrow_month,
            ],
        ),
        (
            "quarter",
            [
                RelativeTimeFormatter::try_new_long_quarter,
                RelativeTimeFormatter::try_new_short_quarter,
                RelativeTimeFormatter::try_new_narrow_quarter,
            ],
        ),
        (
            "year",
            [
                RelativeTimeFormatter::try_new_long_year,
                RelativeTimeFormatter::try_new_short_year,
                RelativeTimeFormatter::try_new_narrow_year,
            ],
        ),
    ];
    let ctors = table
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, c)| c)
        .ok_or_else(|| format!("Intl.RelativeTimeFormat: invalid unit \"{unit}\"; use second, minute, hour, day, week, month, quarter or year"))?;
    let ctor = match style {
        "short" => ctors[1],
        "narrow" => ctors[2],
        _ => ctors[0],
    };
    let f = ctor(prefs, options).map_err(data("relative time", tag))?;
    let d = Decimal::try_from_f64(value, FloatPrecision::RoundTrip)
        .map_err(|e| format!("Intl.RelativeTimeFormat: {value} cannot be written as a decimal ({e:?})"))?;
    Ok(f.format(d).to_string())
}

fn options<T: for<'de> Deserialize<'de>>(what: &str, json: &str) -> Result<T, Refusal> {
    serde_json::from_str(json).map_err(|e| format!("Intl.{what}: the layer passed bad options ({e})"))
}

/// The functions, as one object for the layer.
pub(crate) fn natives<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    fn thrown<T>(ctx: &Ctx<'_>, r: Result<T, Refusal>) -> rquickjs::Result<T> {
        r.map_err(|m| Exception::throw_range(ctx, &m))
    }
    let o = Object::new(ctx.clone())?;
    o.set("canonical", Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: String| thrown(&ctx, canonical(&tag)))?)?;
    o.set(
        "number",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: String, json: String, value: f64| {
            thrown(&ctx, options::<NumberOptions>("NumberFormat", &json).and_then(|o| number(&tag, &o, value)))
        })?,
    )?;
    o.set(
        "date",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: String, json: String, ms: f64| {
            thrown(&ctx, options::<DateOptions>("DateTimeFormat", &json).and_then(|o| date(&tag, &o, ms)))
        })?,
    )?;
    o.set(
        "compare",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: String, json: String, a: String, b: String| {
            thrown(&ctx, options::<CollatorOpts>("Collator", &json).and_then(|o| compare(&tag, &o, &a, &b)))
        })?,
    )?;
    o.set(
        "plural",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: String, ordinal: bool, v: f64, min: i32, max: i32| {
            thrown(&ctx, plural(&tag, ordinal, v, min as i16, max as i16))
        })?,
    )?;
    o.set(
        "list",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: String, kind: String, style: String, items: Vec<String>| {
            thrown(&ctx, list(&tag, &kind, &style, &items))
        })?,
    )?;
    o.set(
        "relative",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, tag: String, style: String, numeric: String, v: f64, unit: String| {
                thrown(&ctx, relative(&tag, &style, &numeric, v, &unit))
            },
        )?,
    )?;
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_cover_leap_years_and_the_epoch() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(19_782), (2024, 2, 29));
        assert_eq!(civil(-1), (1969, 12, 31));
    }
}
