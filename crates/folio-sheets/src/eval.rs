//! A small formula evaluator, so a workbook written by `create` carries cached values: a reader
//! that does not recalculate (pandas, openpyxl with `data_only`, a preview, a phone) sees the
//! results, not zeros. It covers arithmetic, comparison, `&`, references and ranges (on any
//! sheet of the workbook being written) and the common functions in [`FUNCTIONS`]; anything else
//! is [`Eval::Unknown`] and the cell is written without a cached value, for `recalculate`
//! (LibreOffice) to fill. It never guesses: a value is cached only when it is computed exactly
//! as Excel would.

use std::collections::HashSet;

/// A value during evaluation.
#[derive(Debug, Clone, PartialEq)]
pub enum V {
    /// A number.
    Num(f64),
    /// Text.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// An error marker (`#DIV/0!`).
    Err(&'static str),
    /// An empty cell.
    Empty,
}

impl V {
    /// The text rust_xlsxwriter stores as the formula's result.
    pub fn result_text(&self) -> String {
        match self {
            V::Num(n) => format_number(*n),
            V::Str(s) => s.clone(),
            V::Bool(b) => {
                if *b {
                    "TRUE".into()
                } else {
                    "FALSE".into()
                }
            }
            V::Err(e) => (*e).to_string(),
            V::Empty => "0".into(),
        }
    }
}

/// A number as Excel stores it (shortest round-trip text).
pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") }
}

/// Why a formula has no cached value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Eval {
    /// A function or construct this evaluator does not compute.
    Unknown(String),
}

/// The functions computed here.
pub const FUNCTIONS: &[&str] = &[
    "SUM",
    "AVERAGE",
    "MIN",
    "MAX",
    "COUNT",
    "COUNTA",
    "PRODUCT",
    "ROUND",
    "ABS",
    "IF",
    "IFERROR",
    "AND",
    "OR",
    "NOT",
    "CONCAT",
    "CONCATENATE",
    "LEN",
    "UPPER",
    "LOWER",
    "SQRT",
    "INT",
    "MOD",
];

/// What the evaluator reads: a cell's value, evaluating formula cells as needed.
pub trait Cells {
    /// The value at (sheet, row, col) 0-based; `sheet` `None` is the formula's own sheet.
    fn value(&self, sheet: Option<&str>, row: u32, col: u32, seen: &mut HashSet<(String, u32, u32)>)
    -> Result<V, Eval>;
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Str(String),
    Name(String),
    Ref(Option<String>, String),
    Op(char),
    Op2(&'static str),
    LParen,
    RParen,
    Comma,
    Colon,
}

fn tokens(src: &str) -> Result<Vec<Tok>, Eval> {
    let s: Vec<char> = src.trim_start_matches('=').chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let unknown = |what: &str| Eval::Unknown(what.to_string());
    while i < s.len() {
        let c = s[i];
        match c {
            ' ' => i += 1,
            '0'..='9' | '.' => {
                let start = i;
                while i < s.len() && (s[i].is_ascii_digit() || s[i] == '.') {
                    i += 1;
                }
                if i < s.len() && (s[i] == 'e' || s[i] == 'E') {
                    i += 1;
                    if i < s.len() && (s[i] == '+' || s[i] == '-') {
                        i += 1;
                    }
                    while i < s.len() && s[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                let text: String = s[start..i].iter().collect();
                out.push(Tok::Num(text.parse().map_err(|_| unknown("number"))?));
            }
            '"' => {
                let mut text = String::new();
                i += 1;
                loop {
                    match s.get(i) {
                        None => return Err(unknown("unterminated string")),
                        Some('"') if s.get(i + 1) == Some(&'"') => {
                            text.push('"');
                            i += 2;
                        }
                        Some('"') => {
                            i += 1;
                            break;
                        }
                        Some(ch) => {
                            text.push(*ch);
                            i += 1;
                        }
                    }
                }
                out.push(Tok::Str(text));
            }
            '\'' => {
                let mut name = String::new();
                i += 1;
                while i < s.len() && !(s[i] == '\'' && s.get(i + 1) != Some(&'\'')) {
                    if s[i] == '\'' {
                        i += 1;
                    }
                    name.push(s[i]);
                    i += 1;
                }
                i += 1;
                if s.get(i) != Some(&'!') {
                    return Err(unknown("quoted name"));
                }
                i += 1;
                let start = i;
                while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == '$') {
                    i += 1;
                }
                out.push(Tok::Ref(Some(name), s[start..i].iter().collect()));
            }
            '<' | '>' => {
                let two: String = s[i..(i + 2).min(s.len())].iter().collect();
                let op = match two.as_str() {
                    "<=" => Some("<="),
                    ">=" => Some(">="),
                    "<>" => Some("<>"),
                    _ => None,
                };
                if let Some(op) = op {
                    out.push(Tok::Op2(op));
                    i += 2;
                } else {
                    out.push(Tok::Op(c));
                    i += 1;
                }
            }
            '+' | '-' | '*' | '/' | '^' | '&' | '=' | '%' => {
                out.push(Tok::Op(c));
                i += 1;
            }
            '(' => {
                out.push(Tok::LParen);
                i += 1;
            }
            ')' => {
                out.push(Tok::RParen);
                i += 1;
            }
            ',' => {
                out.push(Tok::Comma);
                i += 1;
            }
            ':' => {
                out.push(Tok::Colon);
                i += 1;
            }
            c if c.is_alphabetic() || c == '_' || c == '$' => {
                let start = i;
                while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_' || s[i] == '$' || s[i] == '.') {
                    i += 1;
                }
                let word: String = s[start..i].iter().collect();
                if s.get(i) == Some(&'!') {
                    i += 1;
                    let start = i;
                    while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == '$') {
                        i += 1;
                    }
                    out.push(Tok::Ref(Some(word), s[start..i].iter().collect()));
                } else if s.get(i) != Some(&'(') && crate::flat::parse_cell(&word).is_some() {
                    out.push(Tok::Ref(None, word));
                } else {
                    out.push(Tok::Name(word.to_ascii_uppercase()));
                }
            }
            other => return Err(unknown(&format!("character {other:?}"))),
        }
    }
    Ok(out)
}

/// An argument: one value, or the values of a range.
enum Arg {
    One(V),
    Many(Vec<V>),
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    cells: &'a dyn Cells,
    seen: &'a mut HashSet<(String, u32, u32)>,
}

/// Evaluates `formula` (with or without `=`) against `cells`.
pub fn evaluate(formula: &str, cells: &dyn Cells, seen: &mut HashSet<(String, u32, u32)>) -> Result<V, Eval> {
    let toks = tokens(formula)?;
    let mut p = Parser { toks, at: 0, cells, seen };
    let v = p.compare()?;
    if p.at != p.toks.len() {
        return Err(Eval::Unknown("trailing tokens".into()));
    }
    Ok(one(v))
}

fn one(a: Arg) -> V {
    match a {
        Arg::One(v) => v,
        Arg::Many(vs) if vs.len() == 1 => vs.into_iter().next().unwrap_or(V::Empty),
        Arg::Many(_) => V::Err("#VALUE!"),
    }
}

fn num(v: &V) -> Result<f64, &'static str> {
    match v {
        V::Num(n) => Ok(*n),
        V::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        V::Empty => Ok(0.0),
        V::Str(s) => s.trim().parse().map_err(|_| "#VALUE!"),
        V::Err(e) => Err(e),
    }
}

fn text(v: &V) -> Result<String, &'static str> {
    match v {
        V::Err(e) => Err(e),
        V::Empty => Ok(String::new()),
        other => Ok(other.result_text()),
    }
}

fn truth(v: &V) -> Result<bool, &'static str> {
    match v {
        V::Bool(b) => Ok(*b),
        V::Str(s) if s.eq_ignore_ascii_case("true") => Ok(true),
        V::Str(s) if s.eq_ignore_ascii_case("false") => Ok(false),
        V::Str(_) => Err("#VALUE!"),
        other => num(other).map(|n| n != 0.0),
    }
}

macro_rules! tryv {
    ($e:expr) => {
        match $e {
            Ok(x) => x,
            Err(e) => return Ok(Arg::One(V::Err(e))),
        }
    };
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn bump(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.at).cloned();
        self.at += 1;
        t
    }

    fn compare(&mut self) -> Result<Arg, Eval> {
        let left = self.concat()?;
        let op = match self.peek() {
            Some(Tok::Op('=')) => "=",
            Some(Tok::Op('<')) => "<",
            Some(Tok::Op('>')) => ">",
            Some(Tok::Op2(op)) => op,
            _ => return Ok(left),
        };
        self.at += 1;
        let (a, b) = (one(left), one(self.concat()?));
        if let V::Err(e) = a {
            return Ok(Arg::One(V::Err(e)));
        }
        if let V::Err(e) = b {
            return Ok(Arg::One(V::Err(e)));
        }
        let ord = match (&a, &b) {
            (V::Str(x), V::Str(y)) => x.to_lowercase().cmp(&y.to_lowercase()),
            (V::Str(_), _) => std::cmp::Ordering::Greater,
            (_, V::Str(_)) => std::cmp::Ordering::Less,
            _ => tryv!(num(&a)).partial_cmp(&tryv!(num(&b))).unwrap_or(std::cmp::Ordering::Equal),
        };
        use std::cmp::Ordering::*;
        let r = match op {
            "=" => ord == Equal,
            "<>" => ord != Equal,
            "<" => ord == Less,
            ">" => ord == Greater,
            "<=" => ord != Greater,
            _ => ord != Less,
        };
        Ok(Arg::One(V::Bool(r)))
    }

    fn concat(&mut self) -> Result<Arg, Eval> {
        let mut left = self.additive()?;
        while self.peek() == Some(&Tok::Op('&')) {
            self.at += 1;
            let right = one(self.additive()?);
            let a = tryv!(text(&one(left)));
            let b = tryv!(text(&right));
            left = Arg::One(V::Str(a + &b));
        }
        Ok(left)
    }

    fn additive(&mut self) -> Result<Arg, Eval> {
        let mut left = self.term()?;
        while let Some(Tok::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.at += 1;
            let right = one(self.term()?);
            let (a, b) = (tryv!(num(&one(left))), tryv!(num(&right)));
            left = Arg::One(V::Num(if op == '+' { a + b } else { a - b }));
        }
        Ok(left)
    }

    fn term(&mut self) -> Result<Arg, Eval> {
        let mut left = self.power()?;
        while let Some(Tok::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.at += 1;
            let right = one(self.power()?);
            let (a, b) = (tryv!(num(&one(left))), tryv!(num(&right)));
            left = Arg::One(if op == '*' {
                V::Num(a * b)
            } else if b == 0.0 {
                V::Err("#DIV/0!")
            } else {
                V::Num(a / b)
            });
        }
        Ok(left)
    }

    fn power(&mut self) -> Result<Arg, Eval> {
        let mut left = self.unary()?;
        while self.peek() == Some(&Tok::Op('^')) {
            self.at += 1;
            let right = one(self.unary()?);
            let (a, b) = (tryv!(num(&one(left))), tryv!(num(&right)));
            let r = a.powf(b);
            left = Arg::One(if r.is_finite() { V::Num(r) } else { V::Err("#NUM!") });
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Arg, Eval> {
        match self.peek() {
            Some(Tok::Op('-')) => {
                self.at += 1;
                let v = one(self.unary()?);
                Ok(Arg::One(V::Num(-tryv!(num(&v)))))
            }
            Some(Tok::Op('+')) => {
                self.at += 1;
                self.unary()
            }
            _ => {
                let v = self.primary()?;
                if self.peek() == Some(&Tok::Op('%')) {
                    self.at += 1;
                    let n = tryv!(num(&one(v)));
                    return Ok(Arg::One(V::Num(n / 100.0)));
                }
                Ok(v)
            }
        }
    }

    fn primary(&mut self) -> Result<Arg, Eval> {
        match self.bump() {
            Some(Tok::Num(n)) => Ok(Arg::One(V::Num(n))),
            Some(Tok::Str(s)) => Ok(Arg::One(V::Str(s))),
            Some(Tok::LParen) => {
                let v = self.compare()?;
                match self.bump() {
                    Some(Tok::RParen) => Ok(v),
                    _ => Err(Eval::Unknown("unbalanced parentheses".into())),
                }
            }
            Some(Tok::Ref(sheet, a)) => {
                let (r0, c0) = crate::flat::parse_cell(&a).ok_or_else(|| Eval::Unknown(format!("reference {a}")))?;
                if self.peek() == Some(&Tok::Colon) {
                    self.at += 1;
                    let b = match self.bump() {
                        Some(Tok::Ref(_, b)) => b,
                        _ => return Err(Eval::Unknown("range".into())),
                    };
                    let (r1, c1) =
                        crate::flat::parse_cell(&b).ok_or_else(|| Eval::Unknown(format!("reference {b}")))?;
                    let (ra, rb, ca, cb) = (r0.min(r1), r0.max(r1), c0.min(c1), c0.max(c1));
                    if (rb - ra + 1) as u64 * (cb - ca + 1) as u64 > 1_000_000 {
                        return Err(Eval::Unknown("a range over a million cells".into()));
                    }
                    let mut vs = Vec::new();
                    for r in ra..=rb {
                        for c in ca..=cb {
                            vs.push(self.cells.value(sheet.as_deref(), r, c, self.seen)?);
                        }
                    }
                    return Ok(Arg::Many(vs));
                }
                Ok(Arg::One(self.cells.value(sheet.as_deref(), r0, c0, self.seen)?))
            }
            Some(Tok::Name(n)) if n == "TRUE" || n == "FALSE" => {
                if self.peek() == Some(&Tok::LParen) {
                    self.at += 2;
                }
                Ok(Arg::One(V::Bool(n == "TRUE")))
            }
            Some(Tok::Name(n)) if self.peek() == Some(&Tok::LParen) => {
                self.at += 1;
                let mut args = Vec::new();
                if self.peek() == Some(&Tok::RParen) {
                    self.at += 1;
                } else {
                    loop {
                        args.push(self.compare()?);
                        match self.bump() {
                            Some(Tok::Comma) => {}
                            Some(Tok::RParen) => break,
                            _ => return Err(Eval::Unknown("argument list".into())),
                        }
                    }
                }
                call(&n, args)
            }
            other => Err(Eval::Unknown(format!("{other:?}"))),
        }
    }
}

/// Numbers of the arguments as SUM sees them: ranges skip text, booleans and blanks; direct
/// arguments are coerced.
fn numbers(args: &[Arg]) -> Result<Vec<f64>, &'static str> {
    let mut out = Vec::new();
    for a in args {
        match a {
            Arg::One(v) => out.push(num(v)?),
            Arg::Many(vs) => {
                for v in vs {
                    match v {
                        V::Num(n) => out.push(*n),
                        V::Err(e) => return Err(e),
                        _ => {}
                    }
                }
            }
        }
    }
    Ok(out)
}

fn call(name: &str, args: Vec<Arg>) -> Result<Arg, Eval> {
    let n = args.len();
    if let Some(v) = many(name, &args) {
        return Ok(Arg::One(v));
    }
    let arity = |lo: usize, hi: usize| -> Result<(), Eval> {
        if n < lo || n > hi { Err(Eval::Unknown(format!("{name} with {n} arguments"))) } else { Ok(()) }
    };
    let mut vals = args.into_iter().map(one);
    let mut next = || vals.next().unwrap_or(V::Empty);
    let v = match name {
        "ROUND" => {
            arity(2, 2)?;
            let (x, d) = (tryv!(num(&next())), tryv!(num(&next())));
            let f = 10f64.powi(d.trunc() as i32);
            V::Num((x * f).round() / f)
        }
        "ABS" | "SQRT" | "INT" | "LEN" | "UPPER" | "LOWER" | "NOT" => {
            arity(1, 1)?;
            let a = next();
            match name {
                "ABS" => V::Num(tryv!(num(&a)).abs()),
                "SQRT" => {
                    let x = tryv!(num(&a));
                    if x < 0.0 { V::Err("#NUM!") } else { V::Num(x.sqrt()) }
                }
                "INT" => V::Num(tryv!(num(&a)).floor()),
                "LEN" => V::Num(tryv!(text(&a)).chars().count() as f64),
                "UPPER" => V::Str(tryv!(text(&a)).to_uppercase()),
                "LOWER" => V::Str(tryv!(text(&a)).to_lowercase()),
                _ => V::Bool(!tryv!(truth(&a))),
            }
        }
        "MOD" => {
            arity(2, 2)?;
            let (x, d) = (tryv!(num(&next())), tryv!(num(&next())));
            if d == 0.0 { V::Err("#DIV/0!") } else { V::Num(x - d * (x / d).floor()) }
        }
        "IF" => {
            arity(2, 3)?;
            let c = tryv!(truth(&next()));
            let (a, b) = (next(), next());
            if c {
                a
            } else if n == 3 {
                b
            } else {
                V::Bool(false)
            }
        }
        "IFERROR" => {
            arity(2, 2)?;
            let (a, b) = (next(), next());
            if matches!(a, V::Err(_)) { b } else { a }
        }
        other => return Err(Eval::Unknown(format!("function {other}"))),
    };
    Ok(Arg::One(v))
}

/// The functions over any number of arguments and ranges; `None` for the others.
fn many(name: &str, args: &[Arg]) -> Option<V> {
    let err = |e: &'static str| Some(V::Err(e));
    match name {
        "SUM" | "AVERAGE" | "MIN" | "MAX" | "PRODUCT" => {
            let xs = match numbers(args) {
                Ok(xs) => xs,
                Err(e) => return err(e),
            };
            let fold = |f: fn(f64, f64) -> f64| xs.iter().copied().reduce(f).unwrap_or(0.0);
            Some(match name {
                "SUM" => V::Num(xs.iter().sum()),
                "PRODUCT" => V::Num(if xs.is_empty() { 0.0 } else { xs.iter().product() }),
                "AVERAGE" if xs.is_empty() => V::Err("#DIV/0!"),
                "AVERAGE" => V::Num(xs.iter().sum::<f64>() / xs.len() as f64),
                "MIN" => V::Num(fold(f64::min)),
                _ => V::Num(fold(f64::max)),
            })
        }
        "COUNT" | "COUNTA" => {
            let c: usize = args
                .iter()
                .map(|a| match a {
                    Arg::One(v) if name == "COUNT" => usize::from(matches!(v, V::Num(_) | V::Bool(_))),
                    Arg::One(v) => usize::from(*v != V::Empty),
                    Arg::Many(vs) if name == "COUNT" => vs.iter().filter(|v| matches!(v, V::Num(_))).count(),
                    Arg::Many(vs) => vs.iter().filter(|v| **v != V::Empty).count(),
                })
                .sum();
            Some(V::Num(c as f64))
        }
        "AND" | "OR" => {
            let mut acc = name == "AND";
            for a in args {
                let vs: Vec<&V> = match a {
                    Arg::One(v) => vec![v],
                    Arg::Many(vs) => vs.iter().filter(|v| matches!(v, V::Num(_) | V::Bool(_) | V::Err(_))).collect(),
                };
                for v in vs {
                    match truth(v) {
                        Ok(t) => acc = if name == "AND" { acc && t } else { acc || t },
                        Err(e) => return err(e),
                    }
                }
            }
            Some(V::Bool(acc))
        }
        "CONCAT" | "CONCATENATE" => {
            let mut s = String::new();
            for a in args {
                let vs: Vec<&V> = match a {
                    Arg::One(v) => vec![v],
                    Arg::Many(vs) => vs.iter().collect(),
                };
                for v in vs {
                    match text(v) {
                        Ok(t) => s.push_str(&t),
                        Err(e) => return err(e),
                    }
                }
            }
            Some(V::Str(s))
        }
        _ => None,
    }
}
