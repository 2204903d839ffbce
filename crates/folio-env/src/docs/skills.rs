//! The skills shipped with the environment, as `(name, summary, body)`.

type Skill = (&'static str, &'static str, &'static str);

/// Skills every environment has, in index order.
pub const ALWAYS: [Skill; 6] = [
    (
        "imports",
        "The exact import line for every module. Read this before writing any script.",
        "# Imports\n\nEvery module is imported by its `env:` name, and you import its *bindings*, not the module's name:\n\n```js\nimport * as fs from 'env:fs';\nimport { csv, json, text } from 'env:std';\nimport * as assert from 'env:assert';\n```\n\nFive npm libraries are imported by their own names, as their READMEs show: `import ExcelJS from 'exceljs'`, `import { Document, Packer } from 'docx'`, `import { PDFDocument } from 'pdf-lib'`, `import fontkit from '@pdf-lib/fontkit'`, `import pptxgen from 'pptxgenjs'` (skill `npm-libraries`), with Node's `fs`, `path` and `Buffer` answered inside the tree. Nothing else is there: no `require`, no `fetch`, no host file system, no other npm packages. Your own helpers are imported by relative path with the `.js` extension: `import { clean } from './lib/clean.js';`.\n\nCommon slips:\n- `csv.parse` gives records and `csv.rows` gives arrays — there is no `parseRows`.\n- A module's directory under /std is named without the prefix: `/std/std/index.d.ts` documents `env:std`.\n- When an import fails, the error lists what the module really exports. Read `/std/README.md` and the module's `index.d.ts` rather than guessing twice.\n",
    ),
    (
        "runtime",
        "What the script runtime has, and what it does not (so you do not try it).",
        "# The runtime: what is here and what is not\n\nScripts are ES modules run in QuickJS inside the sandbox, not Node and not a browser.\n\n**Here:** Node's `fs` (sync calls and `fs/promises`, on the tree), `path`, `buffer` (`Buffer`), `events`, `stream` and `stream/promises`, `util`, `crypto`, `url`, `timers` and `timers/promises` (also as `node:…`); `process` with an empty `env`; the web's `TextEncoder`/`TextDecoder` (every WHATWG encoding), `URL`, `crypto`, `structuredClone`, `atob`/`btoa`, `AbortController`, `Event`/`EventTarget`, `setTimeout`/`setInterval`/`setImmediate`; the five npm libraries of `imports.md`; the `env:` modules in `/std/README.md`.\n\n**Not here — do not try:**\n- `require` and CommonJS: use `import`.\n- The network: no `fetch`, `XMLHttpRequest`, `WebSocket`, `http`/`https`/`net`; a file is read from the tree, never downloaded.\n- Processes and threads: no `child_process`, `worker_threads` or Web Workers (so fflate's callback and `Async…` forms do not work: use its `*Sync` functions).\n- `os`, `zlib` (use `env:zip`), `Intl`, a DOM (`window`, `document`), `localStorage`.\n- The host's file system and environment variables: paths are tree paths (`/inbox/a.csv`), and `process.env` is empty.\n- Any npm package beyond the five.\n\nWhen something is missing, the error names it; read it instead of trying a variant.\n",
    ),
    (
        "large-documents",
        "Work with a document too big to read — extract to a file, then search it.",
        "# Large documents\n\n1. `describe` the file first: size, line count, which module opens it.\n2. Extract its text to a file in /tmp (keep page or sheet markers like `--- page 12 ---` so a match can be located).\n3. `grep` the extract for what you need, with `context` for the surroundings.\n4. `read_file` only the slices you need, with `start_line`/`end_line`.\n\nNever paste a whole document into a reply: it burns the context and the answer is usually three lines of it.\n",
    ),
    (
        "messy-data",
        "Parse a real-world CSV: quoted fields, stray whitespace, duplicate rows.",
        "# Messy data\n\n- Parse with `csv.parse` (records) — it handles quotes, embedded commas and newlines.\n- Drop comment and blank lines before parsing if the file has them.\n- Trim keys and values used for grouping; `' North'` and `'North'` are the same region.\n- Strip currency signs and thousands separators before `Number()`, and check for `NaN`.\n- Deduplicate on the id column, and say how many duplicates you dropped.\n- Compute from every row, then sanity-check the result (counts add up, totals match a spot check).\n",
    ),
    (
        "producing-files",
        "Where deliverables go, and how to check what you produced.",
        "# Producing files\n\n- Finished work goes in `/out`; drafts and intermediates go in `/tmp` (they never reach the person's folder).\n- After writing, check the result: `describe` it, and read back the part that matters.\n- Name files for the person (`q2-revenue.csv`, not `output2.csv`).\n- Remove superseded drafts from `/out` so the person is not left guessing which file is the answer.\n",
    ),
    (
        "scripts",
        "The script contract, and how to build a library instead of one-off code.",
        "# Scripts\n\nA script lives under `/scripts`, is JavaScript, and has a default export:\n\n```js\n/** Totals the amount column of a CSV by region. */\nexport default async function (args) {\n  // args.input: path of the CSV\n}\n```\n\n- The first line of the JSDoc comment is what `ls /scripts` shows — write it for the next reader.\n- Put code shared between scripts in `/scripts/lib` and import it by relative path with `.js`.\n- Before writing something new, `ls /scripts` and `grep` for an existing script that already does it.\n- Tests are `*.test.js` files using `env:assert`.\n",
    ),
];

/// Travels with `present`.
pub const DELIVERING: Skill = (
    "delivering",
    "How to hand a finished file to the person.",
    "# Delivering\n\nWriting a file to /out is not delivering it. Call `present({ path: '/out/report.pdf', caption: '…' })` once per finished deliverable.\n\n- Only files under /out can be presented; `cp` a file there first.\n- The caption says what the file is and what is in it, in a sentence or two.\n- Check the file before presenting it (`describe`, read back the key part).\n- Present the answer, not the drafts.\n",
);

/// Travels with `ask_user`.
pub const ASKING: Skill = (
    "asking",
    "When to ask the person a question, and when not to.",
    "# Asking\n\n`ask_user(question, options)` reaches the person. Use it rarely:\n\n- Only for what the tree cannot tell you: a preference, a missing fact, a choice between readings.\n- Before the expensive step, not after it.\n- Make the question self-contained: the person has not read your working.\n- Offer `options` when the answer is one of a few named choices.\n- Ask once. If no answer comes back, carry on with the most reasonable assumption and say which one you made.\n",
);
