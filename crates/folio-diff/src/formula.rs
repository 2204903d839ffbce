//! Formulas compared by what they mean where they stand: `=D13*E13` in row 13 is the formula
//! `=D12*E12` was in row 12, moved down by an inserted row (Excel and LibreOffice rewrite
//! relative references when rows move). So each A1 reference outside quotes is rewritten
//! relative to the formula's own cell (`R[0]C[-2]`), `$`-anchored parts kept absolute, before two
//! formulas are compared; the person still sees the formulas as written.

/// `formula` (in the cell at 0-based `row`, `col`) with its relative references as offsets.
pub fn relative(formula: &str, row: u32, col: u32) -> String {
    let chars: Vec<char> = formula.chars().collect();
    let mut out = String::with_capacity(formula.len() + 8);
    let mut i = 0;
    let mut quote: Option<char> = None;
    while i < chars.len() {
        let c = chars[i];
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        if c == '"' || c == '\'' {
            quote = Some(c);
            out.push(c);
            i += 1;
            continue;
        }
        let boundary = i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == '.');
        if boundary && let Some((end, text)) = reference(&chars, i, row, col) {
            out.push_str(&text);
            i = end;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// A reference `$?COL$?ROW` starting at `i`, as `C..R..` with offsets for the relative parts;
/// `None` when the text there is not one (a function name, a longer identifier).
fn reference(chars: &[char], i: usize, row: u32, col: u32) -> Option<(usize, String)> {
    let mut j = i;
    let col_abs = chars.get(j) == Some(&'$');
    j += usize::from(col_abs);
    let letters_start = j;
    while j < chars.len() && chars[j].is_ascii_uppercase() {
        j += 1;
    }
    let letters: String = chars[letters_start..j].iter().collect();
    if letters.is_empty() || letters.len() > 3 {
        return None;
    }
    let row_abs = chars.get(j) == Some(&'$');
    j += usize::from(row_abs);
    let digits_start = j;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
    }
    let digits: String = chars[digits_start..j].iter().collect();
    if digits.is_empty() || chars.get(j).is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '(') {
        return None;
    }
    let c = letters.bytes().fold(0i64, |acc, b| acc * 26 + i64::from(b - b'A' + 1)) - 1;
    let r = digits.parse::<i64>().ok()? - 1;
    let col_part = if col_abs { format!("C{c}") } else { format!("C[{}]", c - i64::from(col)) };
    let row_part = if row_abs { format!("R{r}") } else { format!("R[{}]", r - i64::from(row)) };
    Some((j, format!("{row_part}{col_part}")))
}

#[cfg(test)]
mod tests {
    use super::relative;

    #[test]
    fn moved_formulas_read_the_same_and_changed_ones_do_not() {
        // (formula, row, col, another formula, its row, its col, same meaning?)
        let cases = [
            ("=D12*E12", 11, 5, "=D13*E13", 12, 5, true),
            ("=D12*E12", 11, 5, "=D12*E12", 12, 5, false),
            ("=SUM($B$2:B12)", 11, 2, "=SUM($B$2:B13)", 12, 2, true),
            ("=SUM($B$2:B12)", 11, 2, "=SUM($B$3:B13)", 12, 2, false),
            ("=LOG10(A1)", 0, 1, "=LOG10(A2)", 1, 1, true),
            ("=\"A1\"&A1", 0, 1, "=\"A1\"&A2", 1, 1, true),
            ("='Other sheet'!C3", 2, 0, "='Other sheet'!C4", 3, 0, true),
            ("=D8*E8", 7, 5, "=D8*E8*2", 7, 5, false),
        ];
        for (a, ar, ac, b, br, bc, same) in cases {
            assert_eq!(relative(a, ar, ac) == relative(b, br, bc), same, "{a} at ({ar},{ac}) vs {b} at ({br},{bc})");
        }
    }
}
