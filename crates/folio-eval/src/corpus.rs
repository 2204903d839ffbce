//! The generated corpus every scenario starts from: the same seed gives the same bytes, and the
//! generator — not a person reading the files — is where the ground truth comes from.
//!
//! What it plants (the reference harness's design, `desk-spec.md` §7):
//! - an 80-page annual report whose four **buried facts** sit on seeded pages that only a search
//!   finds, beside a **distractor** (a prior-year provision, settled, worded like the live one)
//!   and questions the report never answers (**fabrication traps**);
//! - a messy but valid CSV export: a comment line, three date formats, currency strings with
//!   separators and stray spaces, and one order exported twice;
//! - a budget workbook with formulas and a frozen header, for the edit that must leave
//!   everything else untouched;
//! - a scanned invoice (an image-only PDF page), an email with an attachment, and a contract
//!   draft whose payment term is a tracked change.

use std::collections::BTreeMap;
use std::io::Write;

use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str};
use serde_json::{Value, json};

use crate::EvalError;

/// A small deterministic generator (SplitMix64): the corpus must not change with a crate's
/// version, so no external RNG.
pub struct Seeded(u64);

impl Seeded {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> Seeded {
        Seeded(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next_u64() % items.len() as u64) as usize]
    }
}

/// The generated files (paths relative to the folder) and what they are known to say.
pub struct Corpus {
    /// Each file's path under the folder and its bytes.
    pub files: Vec<(String, Vec<u8>)>,
    /// The ground truth, as JSON: scenarios and checks name its keys (`csv.total`).
    pub truth: Value,
}

impl Corpus {
    /// Writes every file under `folder`.
    pub fn write_to(&self, folder: &std::path::Path) -> Result<(), EvalError> {
        for (path, bytes) in &self.files {
            let target = folder.join(path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| EvalError::io(parent, e))?;
            }
            std::fs::write(&target, bytes).map_err(|e| EvalError::io(&target, e))?;
        }
        Ok(())
    }

    /// The bytes of one generated file.
    pub fn file(&self, path: &str) -> Option<&[u8]> {
        self.files.iter().find(|(p, _)| p == path).map(|(_, b)| b.as_slice())
    }
}

/// The corpus for `seed`.
pub fn generate(seed: u64) -> Result<Corpus, EvalError> {
    let mut rng = Seeded::new(seed);
    let mut truth = serde_json::Map::new();
    let mut files = Vec::new();

    let (pdf, report) = annual_report(&mut rng)?;
    files.push(("inbox/annual-report-2025.pdf".to_owned(), pdf));
    truth.insert("report".into(), report);

    let (csv, csv_truth) = sales_export(&mut rng);
    files.push(("inbox/sales-export.csv".to_owned(), csv));
    truth.insert("csv".into(), csv_truth);

    let (xlsx, budget) = budget_workbook(&mut rng)?;
    files.push(("inbox/budget-2026.xlsx".to_owned(), xlsx));
    truth.insert("budget".into(), budget);

    let (scan, scan_truth) = scanned_invoice(&mut rng)?;
    files.push(("inbox/scan-invoice.pdf".to_owned(), scan));
    truth.insert("scan".into(), scan_truth);

    let (eml, mail) = offer_mail(&mut rng);
    files.push(("inbox/offer.eml".to_owned(), eml));
    truth.insert("email".into(), mail);

    let (docx, contract) = contract_draft(&mut rng)?;
    files.push(("inbox/contract-draft.docx".to_owned(), docx));
    truth.insert("contract".into(), contract);

    truth.insert("seed".into(), json!(seed));
    Ok(Corpus { files, truth: Value::Object(truth) })
}

const FILLER: [&str; 12] = [
    "Operating conditions across the group remained broadly in line with the plan set out last year.",
    "Management continued to review working capital, supplier terms and the timing of capital expenditure.",
    "The segment reports below follow the structure used in previous reports unless stated otherwise.",
    "Headcount movements reflect seasonal hiring in logistics and the completion of two integration projects.",
    "Energy costs eased in the second half, although transport rates stayed above their long-run average.",
    "The group's risk register was updated quarterly and reviewed by the audit committee at each meeting.",
    "Currency effects were modest; most revenue and costs are denominated in euro.",
    "Investment in warehouse automation continued at the pace agreed with the board in the prior year.",
    "Customer satisfaction surveys were carried out in all regions with response rates above sixty percent.",
    "No changes were made to the accounting policies described in the notes to the financial statements.",
    "The sustainability programme reports its figures in a separate supplement published alongside this report.",
    "Tables in this section are unaudited and rounded; totals may not add up because of rounding.",
];

fn annual_report(rng: &mut Seeded) -> Result<(Vec<u8>, Value), EvalError> {
    const PAGES: usize = 80;
    // Four distinct pages between 8 and 76 for the facts, another for the distractor.
    let mut pages: Vec<usize> = Vec::new();
    while pages.len() < 5 {
        let p = rng.range(8, 76) as usize;
        if pages.iter().all(|q| q.abs_diff(p) > 2) {
            pages.push(p);
        }
    }
    let year = rng.range(2029, 2034);
    let rent = format!("{}.{}", rng.range(2, 9), rng.range(1, 9));
    let churn = format!("{}.{}", rng.range(2, 6), rng.range(1, 9));
    let provision = format!("{}.{}", rng.range(2, 7), rng.range(1, 9));
    let shares = rng.range(3, 12);
    let settled = format!("{}.{}", rng.range(1, 9), rng.range(1, 9));
    let facts = vec![
        json!({"id": "lease", "page": pages[0], "value": year.to_string(),
            "text": format!("The Rotterdam distribution centre lease was extended until {year} at an annual rent of EUR {rent} million."),
            "pattern": format!("(?is)rotterdam.{{0,300}}{year}|{year}.{{0,300}}rotterdam")}),
        json!({"id": "churn", "page": pages[1], "value": churn,
            "text": format!("Customer churn in the Nordic segment fell to {churn} percent in the fourth quarter."),
            "pattern": format!("(?is)churn.{{0,300}}{}\\s*(%|percent|per cent)", regex::escape(&churn))}),
        json!({"id": "provision", "page": pages[2], "value": provision,
            "text": format!("A provision of EUR {provision} million remains open for the Ghent supplier dispute."),
            "pattern": format!("(?is)ghent.{{0,300}}{p}|{p}.{{0,300}}ghent", p = regex::escape(&provision))}),
        json!({"id": "buyback", "page": pages[3], "value": shares.to_string(),
            "text": format!("The board approved a share buyback of up to {shares} million shares."),
            "pattern": format!("(?is)buy-?back.{{0,300}}\\b{shares}\\s*(million|m\\b)|\\b{shares}\\s*(million|m\\b).{{0,300}}buy-?back")}),
    ];
    let distractor = json!({"page": pages[4], "value": settled,
        "text": format!("A provision of EUR {settled} million for the Lyon supplier dispute was settled in full in March 2024."),
        "pattern": format!("(?is)lyon"), "settled": "(?i)settled|closed|resolved|no longer|prior[- ]year|2024"});
    let traps = json!([
        {"id": "ceo-pay", "question": "What was the chief executive's total remuneration in 2025?"},
        {"id": "dividend", "question": "What dividend per share is proposed for 2026?"},
    ]);

    let mut text_pages: Vec<Vec<String>> = Vec::with_capacity(PAGES);
    for page in 1..=PAGES {
        let mut lines = vec![format!("Annual report 2025 — section {}", 1 + page / 10)];
        for _ in 0..30 {
            lines.push((*rng.pick(&FILLER)).to_owned());
        }
        let planted: Vec<&Value> =
            facts.iter().chain(std::iter::once(&distractor)).filter(|f| f["page"] == json!(page)).collect();
        for fact in planted {
            let at = rng.range(5, 28) as usize;
            lines.insert(at, fact["text"].as_str().unwrap_or_default().to_owned());
        }
        lines.push(format!("Page {page} of {PAGES}"));
        text_pages.push(lines);
    }
    let pdf = text_pdf(&text_pages)?;
    Ok((pdf, json!({"pages": PAGES, "facts": facts, "distractor": distractor, "traps": traps})))
}

/// Wraps `line` at `width` characters.
fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in line.split(' ') {
        if !cur.is_empty() && cur.len() + 1 + word.len() > width {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A text PDF in Helvetica (WinAnsi: the generator writes only ASCII and the em dash).
fn text_pdf(pages: &[Vec<String>]) -> Result<Vec<u8>, EvalError> {
    let mut pdf = Pdf::new();
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let font = Ref::new(3);
    let ids: Vec<(Ref, Ref)> =
        (0..pages.len()).map(|i| (Ref::new(4 + 2 * i as i32), Ref::new(5 + 2 * i as i32))).collect();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree).kids(ids.iter().map(|p| p.0)).count(pages.len() as i32);
    pdf.type1_font(font).base_font(Name(b"Helvetica")).encoding_predefined(Name(b"WinAnsiEncoding"));
    for (lines, (page_id, content_id)) in pages.iter().zip(&ids) {
        let mut c = Content::new();
        c.begin_text();
        c.set_font(Name(b"F1"), 10.0);
        c.set_leading(13.0);
        c.next_line(56.0, 790.0);
        let mut first = true;
        for line in lines {
            for part in wrap(line, 95) {
                if !first {
                    c.next_line_using_leading();
                }
                first = false;
                let bytes: Vec<u8> = part
                    .chars()
                    .map(|ch| {
                        if ch == '—' {
                            0x97
                        } else if ch.is_ascii() {
                            ch as u8
                        } else {
                            b'?'
                        }
                    })
                    .collect();
                c.show(Str(&bytes));
            }
        }
        c.end_text();
        let raw = c.finish();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6);
        pdf.stream(*content_id, &packed).filter(Filter::FlateDecode);
        let mut page = pdf.page(*page_id);
        page.parent(tree).media_box(Rect::new(0.0, 0.0, 595.0, 842.0)).contents(*content_id);
        page.resources().fonts().pair(Name(b"F1"), font);
        page.finish();
    }
    Ok(pdf.finish())
}

const REGIONS: [&str; 5] = ["North", "South", "East", "West", "Central"];
const REPS: [&str; 6] = ["A. Berg", "J. Moreau", "K. Tanaka", "L. Okafor", "M. Rossi", "S. Novak"];
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

fn sales_export(rng: &mut Seeded) -> (Vec<u8>, Value) {
    const ROWS: usize = 420;
    let mut out =
        String::from("# exported from the CRM on 2025-07-01; amounts in US dollars\norder_id,date,region,amount,rep\n");
    let mut by_region: BTreeMap<&str, i64> = BTreeMap::new();
    let mut total_cents: i64 = 0;
    let dup_at = rng.range(40, 380) as usize;
    let mut dup_line = String::new();
    for i in 0..ROWS {
        let id = format!("SO-{:05}", 10_000 + i);
        let (m, d) = (rng.range(1, 6), rng.range(1, 28));
        let date = match rng.range(0, 2) {
            0 => format!("2025-{m:02}-{d:02}"),
            1 => format!("{d:02}/{m:02}/2025"),
            _ => format!("{d} {} 2025", MONTHS[(m - 1) as usize]),
        };
        let region = *rng.pick(&REGIONS);
        let cents = rng.range(5_000, 500_000) as i64;
        let whole = cents / 100;
        let amount = match rng.range(0, 3) {
            0 => format!("{whole}.{:02}", cents % 100),
            1 => format!("\"${},{:03}.{:02}\"", whole / 1000, whole % 1000, cents % 100),
            2 => format!(" ${whole}.{:02} ", cents % 100),
            _ => format!("\"{},{:03}.{:02}\"", whole / 1000, whole % 1000, cents % 100),
        };
        let amount = if whole < 1000 && amount.contains(',') { format!("{whole}.{:02}", cents % 100) } else { amount };
        let rep = *rng.pick(&REPS);
        let line = format!("{id},{date},{region},{amount},{rep}\n");
        out.push_str(&line);
        if i == dup_at {
            dup_line = line;
        }
        *by_region.entry(region).or_default() += cents;
        total_cents += cents;
    }
    // The duplicate: the same order exported twice, further down.
    let insert_at = out.len() - 1;
    out.insert_str(out[..insert_at].rfind('\n').map_or(insert_at, |i| i + 1), &dup_line);
    let (top, top_cents) = by_region.iter().max_by_key(|(_, c)| **c).map(|(r, c)| (*r, *c)).unwrap_or(("", 0));
    let regions: serde_json::Map<String, Value> =
        by_region.iter().map(|(r, c)| ((*r).to_owned(), json!(*c as f64 / 100.0))).collect();
    let truth = json!({
        "rows": ROWS, "raw_rows": ROWS + 1, "duplicates": 1, "total": total_cents as f64 / 100.0,
        "by_region": regions, "top_region": top, "top_region_total": top_cents as f64 / 100.0,
    });
    (out.into_bytes(), truth)
}

const DEPARTMENTS: [&str; 6] = ["Sales", "Marketing", "Operations", "Finance", "IT", "People"];

fn budget_workbook(rng: &mut Seeded) -> Result<(Vec<u8>, Value), EvalError> {
    use rust_xlsxwriter::{DocProperties, ExcelDateTime, Format, Formula, Workbook};
    let mut book = Workbook::new();
    // A fixed creation time: the writer would stamp the current one, and one seed must give one file.
    let created = ExcelDateTime::from_ymd(2025, 6, 1).map_err(EvalError::xlsx)?;
    book.set_properties(&DocProperties::new().set_creation_datetime(&created));
    let sheet = book.add_worksheet();
    sheet.set_name("Budget").map_err(EvalError::xlsx)?;
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("#,##0");
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"];
    sheet.write_with_format(0, 0, "Department", &bold).map_err(EvalError::xlsx)?;
    for (c, m) in months.iter().enumerate() {
        sheet.write_with_format(0, 1 + c as u16, *m, &bold).map_err(EvalError::xlsx)?;
    }
    sheet.write_with_format(0, 7, "Total", &bold).map_err(EvalError::xlsx)?;
    let mut grid = [[0u64; 6]; 6];
    for (r, dept) in DEPARTMENTS.iter().enumerate() {
        let row = 1 + r as u32;
        sheet.write(row, 0, *dept).map_err(EvalError::xlsx)?;
        for (c, cell) in grid[r].iter_mut().enumerate() {
            *cell = rng.range(40, 260) * 100;
            sheet.write_with_format(row, 1 + c as u16, *cell as f64, &money).map_err(EvalError::xlsx)?;
        }
        let sum: u64 = grid[r].iter().sum();
        let formula = Formula::new(format!("=SUM(B{n}:G{n})", n = row + 1)).set_result(sum.to_string());
        sheet.write_formula_with_format(row, 7, formula, &money).map_err(EvalError::xlsx)?;
    }
    let total_row = 1 + DEPARTMENTS.len() as u32;
    sheet.write_with_format(total_row, 0, "Total", &bold).map_err(EvalError::xlsx)?;
    for c in 0..7u16 {
        let col = (b'B' + c as u8) as char;
        let sum: u64 = if c < 6 { grid.iter().map(|r| r[c as usize]).sum() } else { grid.iter().flatten().sum() };
        let formula = Formula::new(format!("=SUM({col}2:{col}{total_row})")).set_result(sum.to_string());
        sheet.write_formula_with_format(total_row, 1 + c, formula, &money).map_err(EvalError::xlsx)?;
    }
    sheet.set_column_width(0, 16).map_err(EvalError::xlsx)?;
    sheet.set_freeze_panes(1, 0).map_err(EvalError::xlsx)?;
    let bytes = book.save_to_buffer().map_err(EvalError::xlsx)?;
    let new_value = (grid[1][2] / 100 + rng.range(20, 60)) * 100;
    let truth = json!({
        "sheet": "Budget", "department": "Marketing", "month": "Mar", "cell": "D3",
        "old": grid[1][2], "new": new_value,
        // The cells an edit of D3 may change: itself, its row total, its column total, the grand total.
        "allowed": ["D3", "H3", "D8", "H8"],
        "row_total_new": grid[1].iter().sum::<u64>() - grid[1][2] + new_value,
    });
    Ok((bytes, truth))
}

fn scanned_invoice(rng: &mut Seeded) -> Result<(Vec<u8>, Value), EvalError> {
    let number = format!("INV-{}", rng.range(20_000, 89_999));
    let total = format!("{},{:03}.{:02}", rng.range(2, 48), rng.range(0, 999), rng.range(0, 99));
    let lines = [
        ("INVOICE", 64),
        ("Harbor Logistics B.V.", 36),
        (&*format!("Invoice number: {number}"), 36),
        ("Date: 14 June 2025", 36),
        ("Freight services, May 2025", 36),
        (&*format!("Total due: EUR {total}"), 40),
    ];
    let mut svg = String::from(
        "<svg xmlns='http://www.w3.org/2000/svg' width='1240' height='1754'><rect width='1240' height='1754' fill='#fbfaf6'/>",
    );
    for (i, (text, size)) in lines.iter().enumerate() {
        svg.push_str(&format!(
            "<text x='120' y='{}' font-family='DejaVu Sans' font-size='{size}' fill='#1a1a1a'>{text}</text>",
            220 + i * 110
        ));
    }
    svg.push_str("</svg>");
    let size = folio_render::svg::SvgSize { width: Some(1240), height: Some(1754), scale: 1.0 };
    let rgba = folio_render::svg::svg_to_rgba("scan.svg", svg.as_bytes(), size)
        .map_err(|e| EvalError::Corpus(format!("the scanned invoice could not be drawn: {e}")))?;
    let (w, h) = rgba.dimensions();
    // Gray, with a little deterministic noise, as a copier leaves it.
    let gray: Vec<u8> = rgba
        .pixels()
        .map(|p| {
            let g = (u32::from(p[0]) * 3 + u32::from(p[1]) * 6 + u32::from(p[2])) / 10;
            (g as i64 + (rng.next_u64() % 9) as i64 - 4).clamp(0, 255) as u8
        })
        .collect();
    let mut pdf = Pdf::new();
    let (catalog, tree, page_id, content_id, image_id) =
        (Ref::new(1), Ref::new(2), Ref::new(3), Ref::new(4), Ref::new(5));
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree).kids([page_id]).count(1);
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&gray, 6);
    let mut image = pdf.image_xobject(image_id, &packed);
    image.filter(Filter::FlateDecode);
    image.width(w as i32).height(h as i32).bits_per_component(8);
    image.color_space().device_gray();
    image.finish();
    let mut c = Content::new();
    c.save_state();
    c.transform([595.0, 0.0, 0.0, 842.0, 0.0, 0.0]);
    c.x_object(Name(b"Im1"));
    c.restore_state();
    pdf.stream(content_id, &c.finish());
    let mut page = pdf.page(page_id);
    page.parent(tree).media_box(Rect::new(0.0, 0.0, 595.0, 842.0)).contents(content_id);
    page.resources().x_objects().pair(Name(b"Im1"), image_id);
    page.finish();
    Ok((pdf.finish(), json!({"invoice": number, "total": total, "supplier": "Harbor Logistics B.V."})))
}

fn offer_mail(rng: &mut Seeded) -> (Vec<u8>, Value) {
    let rate = format!("{}.{:02}", rng.range(1, 4), rng.range(0, 99));
    let card = format!("lane,rate_per_km_eur\nRotterdam-Lyon,{rate}\nRotterdam-Ghent,1.05\n");
    let encoded = base64(card.as_bytes());
    let eml = format!(
        "From: Marta Kowalska <marta.kowalska@harbor-logistics.example>\r\nTo: Analyst <analyst@example.org>\r\nSubject: Revised offer for Q3 freight\r\nDate: Mon, 16 Jun 2025 09:12:00 +0200\r\nMessage-ID: <offer-q3@harbor-logistics.example>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello,\r\n\r\nattached is our revised rate card for Q3. The Rotterdam-Lyon lane is now EUR {rate} per km.\r\n\r\nBest regards,\r\nMarta\r\n--b1\r\nContent-Type: text/csv; name=\"rate-card-q3.csv\"\r\nContent-Disposition: attachment; filename=\"rate-card-q3.csv\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{encoded}\r\n--b1--\r\n"
    );
    let truth = json!({"from": "Marta Kowalska", "address": "marta.kowalska@harbor-logistics.example",
        "subject": "Revised offer for Q3 freight", "attachment": "rate-card-q3.csv", "rate": rate});
    (eml.into_bytes(), truth)
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn contract_draft(rng: &mut Seeded) -> Result<(Vec<u8>, Value), EvalError> {
    let old_days = 30;
    let new_days = *rng.pick(&[45u32, 60, 75]);
    let party = "Harbor Logistics B.V.";
    let p = |text: &str| format!("<w:p><w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r></w:p>");
    let body = format!(
        "{}{}<w:p><w:r><w:t xml:space=\"preserve\">Payment terms: invoices are payable within </w:t></w:r><w:del w:id=\"1\" w:author=\"Legal\" w:date=\"2025-06-10T10:00:00Z\"><w:r><w:delText>{old_days} days</w:delText></w:r></w:del><w:ins w:id=\"2\" w:author=\"Legal\" w:date=\"2025-06-10T10:00:00Z\"><w:r><w:t>{new_days} days</w:t></w:r></w:ins><w:r><w:t xml:space=\"preserve\"> of receipt.</w:t></w:r></w:p>{}",
        p("Framework agreement for freight services (draft)"),
        p(&format!("Between the Company and {party}.")),
        p("Either party may end this agreement with three months' notice."),
    );
    let document = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>{body}</w:body></w:document>"
    );
    let parts: [(&str, String); 3] = [
        ("[Content_Types].xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\"application/xml\"/><Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>".to_owned()),
        ("_rels/.rels", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/></Relationships>".to_owned()),
        ("word/document.xml", document),
    ];
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut buf);
        // A fixed modification time for the same reason.
        let options = zip::write::SimpleFileOptions::default().last_modified_time(zip::DateTime::default());
        for (name, text) in parts {
            zip.start_file(name, options).map_err(|e| EvalError::Corpus(format!("docx: {e}")))?;
            zip.write_all(text.as_bytes()).map_err(|e| EvalError::Corpus(format!("docx: {e}")))?;
        }
        zip.finish().map_err(|e| EvalError::Corpus(format!("docx: {e}")))?;
    }
    let truth = json!({"accepted_days": new_days, "rejected_days": old_days, "party": party});
    Ok((buf.into_inner(), truth))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_same_seed_gives_the_same_bytes_and_another_seed_other_facts() {
        let a = super::generate(7).unwrap();
        // Past a second boundary, so a timestamp written by a writer would show.
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let b = super::generate(7).unwrap();
        let c = super::generate(8).unwrap();
        for ((pa, ba), (pb, bb)) in a.files.iter().zip(&b.files) {
            assert_eq!(pa, pb);
            assert!(ba == bb, "{pa} differs between two runs of one seed");
        }
        assert_eq!(a.truth, b.truth);
        assert_ne!(a.truth["report"]["facts"], c.truth["report"]["facts"]);
    }

    #[test]
    fn the_csv_has_its_comment_its_duplicate_and_its_messy_amounts() {
        let corpus = super::generate(1).unwrap();
        let csv = String::from_utf8(corpus.file("inbox/sales-export.csv").unwrap().to_vec()).unwrap();
        assert!(csv.starts_with("# exported"));
        let lines: Vec<&str> = csv.lines().skip(2).collect();
        assert_eq!(lines.len(), 421);
        let mut seen = std::collections::BTreeSet::new();
        let dups = lines.iter().filter(|l| !seen.insert(**l)).count();
        assert_eq!(dups, 1);
        assert!(csv.contains("\"$"), "a grouped dollar amount");
        assert!(lines.iter().any(|l| l.contains('/')) && lines.iter().any(|l| l.contains(" 2025,")));
    }
}
