//! `pdf.create`: a [`Doc`] laid out on pages and written with pdf-writer.
//!
//! Layout is a single pass down the page: each block asks for the height it needs and starts a
//! new page when the rest of this one is too short (a heading also keeps two body lines with
//! it; a table row never splits and the header row is drawn again on each page). Text wraps at
//! spaces, and a word wider than the column at characters. Drawing is recorded as [`Op`]s per
//! page and emitted at the end, when the page count ("Page N of M") is known. Glyphs are
//! encoded as they are laid out, so the subset holds exactly what is drawn.
//!
//! Sizes follow the reference: headings 20, 15 and 12.5 pt, body 11 pt, line height 1.35.

use folio_fonts::Face;
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use crate::error::Result;
use crate::image::{self, Samples};
use crate::pdffont::FontUse;
use crate::spec::{Align, Block, Doc, ImageSource, Item, Run};

const BODY: f32 = 11.0;
const LINE: f32 = 1.35;
const CELL: f32 = 10.0;
const PAD: f32 = 4.0;
const HEADINGS: [f32; 3] = [20.0, 15.0, 12.5];

/// One drawing operation on a page.
enum Op {
    Text { font: usize, size: f32, x: f32, y: f32, codes: Vec<u8>, gray: f32 },
    Fill { x: f32, y: f32, w: f32, h: f32, gray: f32 },
    Line { x1: f32, y1: f32, x2: f32, y2: f32, gray: f32 },
    Image { index: usize, x: f32, y: f32, w: f32, h: f32 },
}

/// A stretch of one line in one face.
struct Seg {
    font: usize,
    text: String,
}

struct Layout<'a> {
    doc: &'a Doc,
    fonts: Vec<FontUse>,
    pages: Vec<Vec<Op>>,
    /// The top of the free space on the current page.
    y: f32,
    top: f32,
    bottom: f32,
    left: f32,
    width: f32,
    images: Vec<(Vec<u8>, image::Picture, Samples)>,
}

fn font_index(face: Face) -> usize {
    match face {
        Face::SansBold => 1,
        Face::SansOblique => 2,
        _ => 0,
    }
}

/// Writes `doc` as PDF bytes. Image blocks must carry their bytes ([`ImageSource::Bytes`]).
pub fn write_pdf(doc: &Doc) -> Result<Vec<u8>> {
    doc.check_glyphs()?;
    doc.check_unshaped()?;
    let [pw, ph] = doc.page;
    let m = doc.margin;
    let top = ph - m - if doc.header.is_some() { 14.0 } else { 0.0 };
    let bottom = m + if doc.footer.is_some() || doc.page_numbers { 14.0 } else { 0.0 };
    let mut l = Layout {
        doc,
        fonts: vec![FontUse::new(Face::Sans)?, FontUse::new(Face::SansBold)?, FontUse::new(Face::SansOblique)?],
        pages: vec![Vec::new()],
        y: top,
        top,
        bottom,
        left: m,
        width: pw - 2.0 * m,
        images: Vec::new(),
    };
    for (i, block) in doc.blocks.iter().enumerate() {
        l.block(i, block)?;
    }
    l.finish()
}

impl Layout<'_> {
    fn ops(&mut self) -> &mut Vec<Op> {
        if self.pages.is_empty() {
            self.pages.push(Vec::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = self.top;
    }

    fn at_top(&self) -> bool {
        (self.y - self.top).abs() < 0.01
    }

    /// Makes room for `h` points, starting a page when needed.
    fn room(&mut self, h: f32) {
        if self.y - h < self.bottom && !self.at_top() {
            self.new_page();
        }
    }

    fn text_op(&mut self, font: usize, size: f32, x: f32, y: f32, text: &str, gray: f32) {
        let codes = self.fonts[font].encode(text);
        self.ops().push(Op::Text { font, size, x, y, codes, gray });
    }

    fn measure(&self, segs: &[Seg], size: f32) -> f32 {
        segs.iter().map(|s| self.fonts[s.font].width(&s.text, size)).sum()
    }

    /// Greedy wrap of `runs` into lines no wider than `width`.
    fn wrap(&self, runs: &[Run], size: f32, width: f32) -> Vec<Vec<Seg>> {
        let mut lines: Vec<Vec<Seg>> = vec![Vec::new()];
        let mut line_w = 0.0;
        for run in runs {
            let font = font_index(run.face());
            for (pi, para) in run.text.split('\n').enumerate() {
                if pi > 0 {
                    lines.push(Vec::new());
                    line_w = 0.0;
                }
                for (wi, word) in para.split(' ').enumerate() {
                    // A run's leading space splits off as an empty first word, so the space
                    // before every later word is the only one needed.
                    let space = if wi > 0 { " " } else { "" };
                    let ww = self.fonts[font].width(word, size);
                    let sw = self.fonts[font].width(space, size);
                    if line_w > 0.0 && line_w + sw + ww > width {
                        lines.push(Vec::new());
                        line_w = 0.0;
                        self.push_word(&mut lines, &mut line_w, font, word, size, width);
                        continue;
                    }
                    if line_w > 0.0 {
                        push_seg(lines.last_mut(), font, space);
                        line_w += sw;
                    }
                    self.push_word(&mut lines, &mut line_w, font, word, size, width);
                }
            }
        }
        lines
    }

    /// Adds `word`, breaking it at characters when it is wider than a whole line.
    fn push_word(&self, lines: &mut Vec<Vec<Seg>>, line_w: &mut f32, font: usize, word: &str, size: f32, width: f32) {
        let ww = self.fonts[font].width(word, size);
        if ww <= width || word.chars().count() < 2 {
            push_seg(lines.last_mut(), font, word);
            *line_w += ww;
            return;
        }
        let mut piece = String::new();
        for c in word.chars() {
            let cw = self.fonts[font].width(&c.to_string(), size);
            if *line_w + cw > width && *line_w > 0.0 {
                push_seg(lines.last_mut(), font, &piece);
                piece.clear();
                lines.push(Vec::new());
                *line_w = 0.0;
            }
            piece.push(c);
            *line_w += cw;
        }
        push_seg(lines.last_mut(), font, &piece);
    }

    fn draw_line(&mut self, segs: &[Seg], size: f32, x: f32, baseline: f32, gray: f32) {
        let mut x = x;
        for s in segs {
            if !s.text.is_empty() {
                self.text_op(s.font, size, x, baseline, &s.text, gray);
            }
            x += self.fonts[s.font].width(&s.text, size);
        }
    }

    fn paragraph(&mut self, runs: &[Run], size: f32, x: f32, width: f32, keep: f32) {
        let lead = size * LINE;
        let lines = self.wrap(runs, size, width);
        for (n, line) in lines.iter().enumerate() {
            self.room(if n == 0 { lead + keep } else { lead });
            let baseline = self.y - (lead - size) / 2.0 - self.fonts[0].ascent(size) * 0.8;
            self.draw_line(line, size, x, baseline, 0.0);
            self.y -= lead;
        }
    }

    fn block(&mut self, i: usize, block: &Block) -> Result<()> {
        match block {
            Block::Heading { text, level } => {
                let size = HEADINGS[usize::from(level.saturating_sub(1)).min(2)];
                if !self.at_top() {
                    self.y -= size * 0.7;
                }
                let run = Run { text: text.clone(), bold: true, italic: false };
                self.paragraph(&[run], size, self.left, self.width, 2.0 * BODY * LINE);
                self.y -= size * 0.3;
            }
            Block::Paragraph(runs) => {
                self.paragraph(runs, BODY, self.left, self.width, 0.0);
                self.y -= 6.0;
            }
            Block::Bullets(items) => {
                for item in items {
                    self.bullet(item);
                }
                self.y -= 6.0;
            }
            Block::Table { headers, rows, align } => self.table(headers.as_deref(), rows, align),
            Block::Image { source, width, height } => self.image(i, source, *width, *height)?,
            // A break on a page that has nothing yet would leave it blank.
            Block::PageBreak => {
                if !self.ops().is_empty() {
                    self.new_page();
                }
            }
        }
        Ok(())
    }

    fn bullet(&mut self, item: &Item) {
        let indent = 16.0 * f32::from(item.indent);
        let x = self.left + indent;
        let lead = BODY * LINE;
        self.room(lead);
        let baseline = self.y - (lead - BODY) / 2.0 - self.fonts[0].ascent(BODY) * 0.8;
        let mark = if item.indent.is_multiple_of(2) { "•" } else { "–" };
        self.text_op(0, BODY, x + 2.0, baseline, mark, 0.0);
        self.paragraph(&item.runs, BODY, x + 14.0, (self.width - indent - 14.0).max(40.0), 0.0);
    }

    fn column_widths(&self, headers: Option<&[String]>, rows: &[Vec<String>], cols: usize) -> Vec<f32> {
        let mut natural = vec![20.0f32; cols];
        let mut least = vec![20.0f32; cols];
        let mut note = |c: usize, text: &str, font: usize| {
            let w = self.fonts[font].width(text, CELL) + 2.0 * PAD;
            natural[c] = natural[c].max(w.min(self.width * 0.6));
            let longest = text.split(' ').map(|w| self.fonts[font].width(w, CELL)).fold(0.0, f32::max) + 2.0 * PAD;
            least[c] = least[c].max(longest.min(self.width / cols as f32));
        };
        for (c, h) in headers.unwrap_or_default().iter().enumerate().take(cols) {
            note(c, h, 1);
        }
        for row in rows {
            for (c, cell) in row.iter().enumerate().take(cols) {
                note(c, cell, 0);
            }
        }
        let total: f32 = natural.iter().sum();
        if total <= self.width {
            let grow = self.width / total;
            return natural.iter().map(|w| w * grow).collect();
        }
        let min_total: f32 = least.iter().sum();
        let extra = (self.width - min_total).max(0.0);
        let want: f32 = natural.iter().zip(&least).map(|(n, l)| n - l).sum::<f32>().max(1.0);
        let widths: Vec<f32> = natural.iter().zip(&least).map(|(n, l)| l + (n - l) / want * extra).collect();
        let sum: f32 = widths.iter().sum();
        widths.iter().map(|w| w * (self.width / sum).min(1.0)).collect()
    }

    fn row(&mut self, cells: &[String], widths: &[f32], align: &[Align], header: bool) {
        let font = usize::from(header);
        let lead = CELL * LINE;
        let wrapped: Vec<Vec<Vec<Seg>>> = widths
            .iter()
            .enumerate()
            .map(|(c, w)| {
                let text = cells.get(c).cloned().unwrap_or_default();
                let run = Run { text, bold: header, italic: false };
                self.wrap(&[run], CELL, w - 2.0 * PAD)
            })
            .collect();
        let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let h = lines as f32 * lead + 2.0 * PAD;
        let top = self.y;
        if header {
            let (x, w) = (self.left, self.width);
            self.ops().push(Op::Fill { x, y: top - h, w, h, gray: 0.9 });
        }
        let mut x = self.left;
        for (c, cell_lines) in wrapped.iter().enumerate() {
            let w = widths[c];
            for (n, line) in cell_lines.iter().enumerate() {
                let lw = self.measure(line, CELL);
                let lx = match align.get(c).copied().unwrap_or(Align::Left) {
                    Align::Left => x + PAD,
                    Align::Center => x + (w - lw) / 2.0,
                    Align::Right => x + w - PAD - lw,
                };
                let baseline = top - PAD - n as f32 * lead - (lead - CELL) / 2.0 - self.fonts[font].ascent(CELL) * 0.8;
                self.draw_line(line, CELL, lx, baseline, 0.0);
            }
            x += w;
        }
        let y = top - h;
        let (x1, x2) = (self.left, self.left + self.width);
        self.ops().push(Op::Line { x1, y1: y, x2, y2: y, gray: if header { 0.3 } else { 0.75 } });
        self.y = y;
    }

    fn row_height(&self, cells: &[String], widths: &[f32], header: bool) -> f32 {
        let lines = widths
            .iter()
            .enumerate()
            .map(|(c, w)| {
                let run = Run { text: cells.get(c).cloned().unwrap_or_default(), bold: header, italic: false };
                self.wrap(&[run], CELL, w - 2.0 * PAD).len()
            })
            .max()
            .unwrap_or(1)
            .max(1);
        lines as f32 * CELL * LINE + 2.0 * PAD
    }

    fn table(&mut self, headers: Option<&[String]>, rows: &[Vec<String>], align: &[Align]) {
        let cols = align.len();
        let widths = self.column_widths(headers, rows, cols);
        let head_h = headers.map_or(0.0, |h| self.row_height(h, &widths, true));
        let header_align = align.to_vec();
        let first_h = rows.first().map_or(0.0, |r| self.row_height(r, &widths, false));
        self.room(head_h + first_h);
        if let Some(h) = headers {
            self.row(h, &widths, &header_align, true);
        }
        for r in rows {
            let rh = self.row_height(r, &widths, false);
            if self.y - rh < self.bottom && !self.at_top() {
                self.new_page();
                if let Some(h) = headers {
                    self.row(h, &widths, &header_align, true);
                }
            }
            self.row(r, &widths, align, false);
        }
        self.y -= 10.0;
    }

    fn image(&mut self, i: usize, source: &ImageSource, width: Option<f32>, height: Option<f32>) -> Result<()> {
        let place = format!("content[{i}]");
        let ImageSource::Bytes(bytes) = source else {
            return Err(crate::error::invalid!(
                "{place}: the image was not read before writing — hint: report this as a bug"
            ));
        };
        let pic = image::probe(&place, bytes)?;
        let samples = image::samples(&place, bytes, &pic)?;
        let aspect = pic.height as f32 / pic.width as f32;
        let (mut w, mut h) = match (width, height) {
            (Some(w), Some(h)) => (w, h),
            (Some(w), None) => (w, w * aspect),
            (None, Some(h)) => (h / aspect, h),
            (None, None) => (pic.width as f32 * 0.75, pic.height as f32 * 0.75),
        };
        let max_h = self.top - self.bottom;
        if w > self.width {
            h *= self.width / w;
            w = self.width;
        }
        if h > max_h {
            w *= max_h / h;
            h = max_h;
        }
        self.room(h);
        let index = self.images.len();
        self.images.push((bytes.clone(), pic, samples));
        let (x, y) = (self.left, self.y - h);
        self.ops().push(Op::Image { index, x, y, w, h });
        self.y -= h + 8.0;
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<u8>> {
        if self.pages.last().is_some_and(Vec::is_empty) && self.pages.len() > 1 {
            self.pages.pop();
        }
        let total = self.pages.len();
        let [pw, ph] = self.doc.page;
        let m = self.doc.margin;
        // Running heads, now that the page count is known.
        for n in 0..total {
            let mut extra = Vec::new();
            if let Some(h) = &self.doc.header {
                let codes = self.fonts[0].encode(h);
                extra.push(Op::Text { font: 0, size: 9.0, x: m, y: ph - m + 4.0, codes, gray: 0.35 });
            }
            if let Some(f) = &self.doc.footer {
                let codes = self.fonts[0].encode(f);
                extra.push(Op::Text { font: 0, size: 9.0, x: m, y: m - 8.0, codes, gray: 0.35 });
            }
            if self.doc.page_numbers {
                let label = format!("Page {} of {total}", n + 1);
                let w = self.fonts[0].width(&label, 9.0);
                let codes = self.fonts[0].encode(&label);
                extra.push(Op::Text { font: 0, size: 9.0, x: pw - m - w, y: m - 8.0, codes, gray: 0.35 });
            }
            self.pages[n].extend(extra);
        }
        let mut pdf = Pdf::new();
        let mut next_id = 1;
        let mut next = || {
            next_id += 1;
            Ref::new(next_id)
        };
        let catalog = Ref::new(1);
        let tree = next();
        let info = next();
        let font_ids: Vec<Ref> = (0..self.fonts.len()).map(|_| next()).collect();
        let image_ids: Vec<(Ref, Ref)> = (0..self.images.len()).map(|_| (next(), next())).collect();
        let page_ids: Vec<(Ref, Ref)> = (0..total).map(|_| (next(), next())).collect();
        pdf.catalog(catalog).pages(tree);
        pdf.pages(tree).kids(page_ids.iter().map(|p| p.0)).count(total as i32);
        {
            let mut di = pdf.document_info(info);
            if let Some(t) = &self.doc.title {
                di.title(TextStr(t));
            }
            if let Some(a) = &self.doc.author {
                di.author(TextStr(a));
            }
            if let Some(s) = &self.doc.subject {
                di.subject(TextStr(s));
            }
            di.creator(TextStr("Folio env:documents")).producer(TextStr("Folio (pdf-writer)"));
        }
        for (n, ops) in self.pages.iter().enumerate() {
            let (page_id, content_id) = page_ids[n];
            let mut c = Content::new();
            for op in ops {
                match op {
                    Op::Text { font, size, x, y, codes, gray } => {
                        c.set_fill_gray(*gray);
                        c.begin_text();
                        c.set_font(Name(format!("F{font}").as_bytes()), *size);
                        c.next_line(*x, *y);
                        c.show(Str(codes));
                        c.end_text();
                    }
                    Op::Fill { x, y, w, h, gray } => {
                        c.set_fill_gray(*gray);
                        c.rect(*x, *y, *w, *h);
                        c.fill_nonzero();
                    }
                    Op::Line { x1, y1, x2, y2, gray } => {
                        c.set_stroke_gray(*gray);
                        c.set_line_width(0.6);
                        c.move_to(*x1, *y1);
                        c.line_to(*x2, *y2);
                        c.stroke();
                    }
                    Op::Image { index, x, y, w, h } => {
                        c.save_state();
                        c.transform([*w, 0.0, 0.0, *h, *x, *y]);
                        c.x_object(Name(format!("Im{index}").as_bytes()));
                        c.restore_state();
                    }
                }
            }
            let raw = c.finish();
            let packed = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6);
            pdf.stream(content_id, &packed).filter(Filter::FlateDecode);
            let mut page = pdf.page(page_id);
            page.parent(tree).media_box(Rect::new(0.0, 0.0, pw, ph)).contents(content_id);
            let mut res = page.resources();
            {
                let mut fonts = res.fonts();
                for (i, id) in font_ids.iter().enumerate() {
                    fonts.pair(Name(format!("F{i}").as_bytes()), *id);
                }
            }
            if !image_ids.is_empty() {
                let mut xo = res.x_objects();
                for (i, (id, _)) in image_ids.iter().enumerate() {
                    xo.pair(Name(format!("Im{i}").as_bytes()), *id);
                }
            }
            res.finish();
            page.finish();
        }
        let tags = ["FOLIOA", "FOLIOB", "FOLIOC"];
        let mut more_id = next_id;
        let mut more = || {
            more_id += 1;
            Ref::new(more_id)
        };
        for (i, font) in self.fonts.iter().enumerate() {
            font.write(&mut pdf, font_ids[i], &mut more, tags[i])?;
        }
        for (i, (bytes, pic, samples)) in self.images.iter().enumerate() {
            let (id, mask_id) = image_ids[i];
            match samples {
                Samples::Jpeg { components } => {
                    let mut x = pdf.image_xobject(id, bytes);
                    x.filter(Filter::DctDecode);
                    x.width(pic.width as i32).height(pic.height as i32).bits_per_component(8);
                    match components {
                        1 => x.color_space().device_gray(),
                        4 => {
                            x.decode([1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]);
                            x.color_space().device_cmyk()
                        }
                        _ => x.color_space().device_rgb(),
                    };
                }
                Samples::Raw { channels, color, alpha } => {
                    let packed = miniz_oxide::deflate::compress_to_vec_zlib(color, 6);
                    let mut x = pdf.image_xobject(id, &packed);
                    x.filter(Filter::FlateDecode);
                    x.width(pic.width as i32).height(pic.height as i32).bits_per_component(8);
                    if *channels == 1 {
                        x.color_space().device_gray();
                    } else {
                        x.color_space().device_rgb();
                    }
                    if alpha.is_some() {
                        x.s_mask(mask_id);
                    }
                    x.finish();
                    if let Some(a) = alpha {
                        let packed = miniz_oxide::deflate::compress_to_vec_zlib(a, 6);
                        let mut s = pdf.image_xobject(mask_id, &packed);
                        s.filter(Filter::FlateDecode);
                        s.width(pic.width as i32).height(pic.height as i32).bits_per_component(8);
                        s.color_space().device_gray();
                    }
                }
            }
        }
        pdf.set_file_id((b"folio-docs".to_vec(), b"folio-docs".to_vec()));
        Ok(pdf.finish())
    }
}

fn push_seg(line: Option<&mut Vec<Seg>>, font: usize, text: &str) {
    let Some(line) = line else { return };
    if let Some(last) = line.last_mut().filter(|s| s.font == font) {
        last.text.push_str(text);
    } else {
        line.push(Seg { font, text: text.to_string() });
    }
}
