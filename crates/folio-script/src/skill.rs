//! The skill text for the npm route, and the declarations of the Node APIs the sandbox answers.
//! folio-host wires the skill into `/skills` and may publish [`NODE_DTS`] under `/std`.

/// `.d.ts` of `fs`, `fs/promises`, `path`, `buffer`, `Buffer`, `TextEncoder`/`TextDecoder` and the
/// timers, as the sandbox answers them.
pub const NODE_DTS: &str = include_str!("js/node.d.ts");

/// (name, description, markdown) of the skill that shows the library route.
pub const LIBRARIES_SKILL: (&str, &str, &str) = (
    "npm-libraries",
    "Write workbooks, Word documents, PDFs and decks with exceljs, docx, pdf-lib (+ @pdf-lib/fontkit) and pptxgenjs, exactly as their READMEs show.",
    r#"# The library route: exceljs, docx, pdf-lib, pptxgenjs — as their READMEs show

These npm libraries are in the sandbox, imported by their own names. Write what their READMEs
show; the file terminals (`writeFile`, `fs.writeFileSync`) write into this folder, as a change
you can review like any other. Paths are folder paths: `/out/q3.xlsx`; a relative path starts at `/`.

| import | version | writes with |
|---|---|---|
| `import ExcelJS from 'exceljs'` | 4.4.0 | `await workbook.xlsx.writeFile('/out/x.xlsx')`, `workbook.csv.writeFile(…)`; read with `workbook.xlsx.readFile(…)` |
| `import { Document, Packer, Paragraph, TextRun } from 'docx'` | 9.15.2 | `fs.writeFileSync('/out/memo.docx', await Packer.toBuffer(doc))` |
| `import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'` | 1.17.1 | `fs.writeFileSync('/out/r.pdf', await pdfDoc.save())` |
| `import fontkit from '@pdf-lib/fontkit'` | 1.1.1 | `pdfDoc.registerFontkit(fontkit)` to embed a TTF (any script: Cyrillic, Greek, CJK with the right font) |
| `import pptxgen from 'pptxgenjs'` | 4.0.1 | `await pres.writeFile({ fileName: '/out/deck.pptx' })` |

Always `await` the terminal inside your default export: the run ends when it returns.

## exceljs

```js
import ExcelJS from 'exceljs';
export default async function main() {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sales', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: 'Region', key: 'region', width: 14 },
    { header: 'Revenue', key: 'revenue', width: 14, style: { numFmt: '$#,##0' } },
  ];
  sheet.addRows([{ region: 'North', revenue: 1200 }, { region: 'South', revenue: 900 }]);
  sheet.getRow(1).font = { bold: true };
  sheet.getCell('B4').value = { formula: 'SUM(B2:B3)', result: 2100 };   // give the cached result
  await workbook.xlsx.writeFile('/out/sales.xlsx');
}
```

## docx

```js
import * as fs from 'fs';
import { Document, Packer, Paragraph, TextRun, HeadingLevel } from 'docx';
export default async function main() {
  const doc = new Document({ sections: [{ children: [
    new Paragraph({ text: 'Q3 memo', heading: HeadingLevel.HEADING_1 }),
    new Paragraph({ children: [new TextRun('Revenue grew '), new TextRun({ text: '12%', bold: true })] }),
  ] }] });
  fs.writeFileSync('/out/memo.docx', await Packer.toBuffer(doc));
}
```

## pdf-lib (+ fontkit for any text beyond Latin-1)

```js
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import fs from 'fs';
export default async function main() {
  const pdfDoc = await PDFDocument.create();
  pdfDoc.registerFontkit(fontkit);
  const font = await pdfDoc.embedFont(fs.readFileSync('/fonts/DejaVuSans.ttf'), { subset: true }); // a TTF in the folder
  const helvetica = await pdfDoc.embedFont(StandardFonts.Helvetica);                                 // Latin-1 only
  const page = pdfDoc.addPage();
  page.drawText('Отчёт за квартал', { x: 50, y: page.getHeight() - 80, size: 24, font, color: rgb(0, 0.53, 0.71) });
  page.drawText('Quarterly report', { x: 50, y: page.getHeight() - 110, size: 14, font: helvetica });
  fs.writeFileSync('/out/report.pdf', await pdfDoc.save());
}
```

## pptxgenjs

```js
import pptxgen from 'pptxgenjs';
export default async function main() {
  const pres = new pptxgen();
  const slide = pres.addSlide();
  slide.addText('Q3 in one slide', { x: 0.5, y: 0.4, fontSize: 28, bold: true });
  slide.addChart(pres.ChartType.bar, [{ name: 'Revenue', labels: ['Jul', 'Aug', 'Sep'], values: [12, 15, 19] }], { x: 0.5, y: 1.3, w: 9, h: 4 });
  slide.addImage({ path: '/in/logo.png', x: 8.5, y: 0.3, w: 1, h: 1 });   // a folder path
  await pres.writeFile({ fileName: '/out/q3.pptx' });
}
```

## The Node APIs the sandbox answers

- `fs` / `node:fs`: `readFileSync`, `writeFileSync`, `appendFileSync`, `existsSync`, `mkdirSync` (always
  recursive), `readdirSync` (names, or `{ withFileTypes: true }`), `statSync`, `rmSync`, `renameSync`,
  `copyFileSync`, the callback forms, and `fs.promises` / `fs/promises` (`readFile`, `writeFile`, …).
  Errors carry Node's `code` (`ENOENT`…); a path outside the folder (`/../x`) is refused with env:fs's message.
- `path` / `node:path` (POSIX; the working directory is `/`), `buffer` / `node:buffer`, `events`, `stream`,
  `stream/promises`, `util` (`promisify`, `format`, `inspect`), `url`, `timers`, `timers/promises`, and
  `node:crypto` (`createHash`, `randomBytes`). `fs.createWriteStream` / `createReadStream` pipe as in Node
  (`Packer.toStream(doc).pipe(fs.createWriteStream('/out/a.docx'))` writes the file).
- `process`: `env` is empty, `argv`, `cwd()` is `/`, `platform`, `hrtime`, `nextTick`; `exit` throws.
- Globals: `Buffer` (a `Uint8Array`: `from(text, 'utf8'|'base64'|'hex'|'latin1')`, `alloc`, `concat`,
  `isBuffer`, `byteLength`, `toString(encoding)`), `TextEncoder`, `TextDecoder` (every WHATWG label, e.g.
  `windows-1252`, `shift_jis`; `fatal`, `ignoreBOM`, `stream`), `URL`, `URLSearchParams`, `crypto`
  (`getRandomValues`, `randomUUID`, `subtle.digest`), `structuredClone`, `atob`/`btoa`, `AbortController`.
- Timers (`setTimeout`, `setInterval`, `setImmediate`, `queueMicrotask`) follow the real clock. As in Node,
  the run ends when your default export's promise, the host calls in flight and the timers have settled,
  so a `.then(…)` write you did not `await` still lands; a promise that never settles is stopped at the
  deadline with a list of what was pending. Clear an interval (or `unref()` it) when you are done with it.
- `Intl` (ICU4X with CLDR data; the default locale is `en-US`, the default time zone `UTC`):
  `NumberFormat` (`decimal`/`percent`/`currency` with `currencyDisplay`, fraction/significant/integer
  digits, `useGrouping`, `notation: 'compact'`, `signDisplay`; `format`, `formatToParts`),
  `DateTimeFormat` (`dateStyle`, `timeStyle` `medium`/`short`, `weekday`/`year`/`month`/`day`/`hour`/
  `minute`/`second`, `hour12`, `timeZone` `UTC`, `Etc/GMT+5` or `+05:30` only — no named zones),
  `Collator`, `PluralRules`, `ListFormat`, `RelativeTimeFormat`, `getCanonicalLocales`; and on top
  `(1234.5).toLocaleString('de-DE', {style: 'currency', currency: 'EUR'})`, `toLocaleDateString`,
  `toLocaleTimeString`, `localeCompare`. What is not implemented (`style: 'unit'`, named time zones,
  `formatRange`, `Intl.Segmenter`/`DisplayNames`) throws a RangeError or TypeError naming it.
- Not there: `require`, network (`https`, `fetch`), child processes, other npm packages.
  Anything else you import by a bare name fails, listing what can be imported.

## Then check the file like a reader would

Re-read what you wrote before presenting it: `describe` the file, open a workbook again with
`workbook.xlsx.readFile(…)`, render a PDF or deck page and `view_image` it.
"#,
);
