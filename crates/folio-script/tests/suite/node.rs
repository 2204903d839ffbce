//! The Node layer the sandbox answers: fs scoped to the tree (with env:fs's messages), path,
//! Buffer, the text codecs, timers that end with the run, the import list of an unknown bare
//! name, and freshness of the spare contexts packages are imported from.

use super::*;

/// (name, script, expected outcome fragment). Each script runs in a tree with `/in/a.txt`.
const CASES: &[(&str, &str, &str)] = &[
    (
        "fs reads and writes tree paths, relative ones from /",
        "import fs from 'fs';\nexport default () => { fs.mkdirSync('/out/deep', { recursive: true }); fs.writeFileSync('out/deep/x.txt', 'hé'); return [fs.readFileSync('/out/deep/x.txt', 'utf8'), fs.readFileSync('in/a.txt').toString(), fs.existsSync('/out/deep'), fs.readdirSync('/out'), fs.statSync('/in/a.txt').size, fs.statSync('/out').isDirectory()]; }",
        r#"["hé","alpha",true,["deep"],5,true]"#,
    ),
    (
        "a path outside the tree gets the env:fs message",
        "import { readFileSync } from 'node:fs';\nimport { readFile } from 'env:fs';\nexport default async () => { let a, b; try { readFileSync('../../etc/passwd'); } catch (e) { a = e.message; } try { await readFile('/../../etc/passwd'); } catch (e) { b = e.message; } return [a.replace('fs.readFileSync: ', ''), b.replace('env:fs.readFile: ', ''), a.includes('escapes')]; }",
        r#"true]"#,
    ),
    (
        "host paths are invisible: /etc/passwd is a tree path that does not exist",
        "import fs from 'fs';\nexport default () => { try { fs.readFileSync('/etc/passwd'); return 'read'; } catch (e) { return [e.code, e.message]; } }",
        r#"["ENOENT","fs.readFileSync: no such file: /etc/passwd — hint: ls its directory to see what exists"]"#,
    ),
    (
        "fs/promises and fs.promises",
        "import { readFile, writeFile } from 'fs/promises';\nimport fs from 'fs';\nexport default async () => { await writeFile('/p.txt', 'x'); await fs.promises.writeFile('/q.txt', Buffer.from('eQ==', 'base64')); return [await readFile('/p.txt', 'utf8'), (await fs.promises.readFile('/q.txt')).toString()]; }",
        r#"["x","y"]"#,
    ),
    (
        "path is POSIX with / as the working directory",
        "import path from 'path';\nexport default () => [path.join('/a', 'b', '../c.txt'), path.resolve('x/y'), path.basename('/a/b.xlsx', '.xlsx'), path.extname('r.tar.gz'), path.dirname('/a/b/c'), path.relative('/a/b', '/a/c/d')]",
        r#"["/a/c.txt","/x/y","b",".gz","/a/b","../c/d"]"#,
    ),
    (
        "Buffer is a Uint8Array with Node's encodings",
        "import { Buffer as B } from 'buffer';\nexport default () => { const b = Buffer.from('héllo', 'utf8'); return [B === Buffer, b instanceof Uint8Array, b.length, b.toString('hex'), b.toString('base64'), Buffer.from('68c3a96c6c6f', 'hex').toString(), Buffer.concat([Buffer.from([1, 2]), new Uint8Array([3])]).length, Buffer.isBuffer(b), Buffer.isBuffer(new Uint8Array(1)), Buffer.byteLength('€'), Buffer.alloc(3, 'ab').toString(), b.subarray(1, 3) instanceof Buffer, Buffer.from(b.buffer, b.byteOffset, 2).toString('latin1'), b.readUInt16BE(0)]; }",
        r#"[true,true,6,"68c3a96c6c6f","aMOpbGxv","héllo",3,true,false,3,"aba",true,"hÃ",26819]"#,
    ),
    (
        "TextEncoder and TextDecoder (utf-8, utf-16le, latin1)",
        "export default () => { const e = new TextEncoder().encode('€ ok'); return [Array.from(e), new TextDecoder().decode(e), new TextDecoder('utf-16le').decode(new Uint8Array([0xff, 0xfe, 0x41, 0, 0xac, 0x20])), new TextDecoder('latin1').decode(new Uint8Array([0x63, 0x61, 0x66, 0xe9])), new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))]; }",
        r#"[[226,130,172,32,111,107],"€ ok","A€","café","a"]"#,
    ),
    (
        "a lone surrogate encodes as U+FFFD, as in Node",
        "export default () => [Array.from(new TextEncoder().encode('a\\uD800')), Buffer.from('\\uDC00').toString('hex')]",
        r#"[[97,239,191,189],"efbfbd"]"#,
    ),
    (
        "timers fire in due order on the real clock, microtasks between them",
        "export default () => new Promise((done) => { const seen = []; const t0 = Date.now(); setTimeout(() => seen.push('t50'), 50); setTimeout(() => { seen.push('t0'); Promise.resolve().then(() => seen.push('micro')); }, 0); const i = setInterval(() => { seen.push('i'); if (seen.filter((s) => s === 'i').length === 3) clearInterval(i); }, 20); const c = setTimeout(() => seen.push('cleared'), 1); clearTimeout(c); setTimeout(() => done([seen.join(','), Date.now() - t0 >= 195]), 200); })",
        r#"["t0,micro,i,i,t50,i",true]"#,
    ),
    (
        "setImmediate runs before a due timer",
        "export default () => new Promise((done) => { const seen = []; setTimeout(() => { seen.push('t'); done(seen.join()); }, 5); setImmediate(() => seen.push('imm')); })",
        r#""imm,t""#,
    ),
    (
        "process: env empty, argv, hrtime, nextTick, cwd() = '/', platform",
        "import proc from 'process';\nexport default async () => { const seen = []; process.nextTick(() => seen.push('tick')); await null; const t = process.hrtime(); const d = process.hrtime(t); let exit; try { process.exit(1); } catch (e) { exit = e.message; } return [proc === process, Object.keys(process.env).length, process.argv.length >= 2, process.cwd(), process.platform, seen, Array.isArray(d) && d.length === 2, typeof process.hrtime.bigint(), exit.startsWith('process.exit(1) is not available')]; }",
        r#"[true,0,true,"/","linux",["tick"],true,"bigint",true]"#,
    ),
    (
        "events: on, once, off, emit, error without a listener throws, events.once",
        "import EventEmitter, { once } from 'events';\nexport default async () => { const e = new EventEmitter(); const seen = []; const f = (x) => seen.push('on' + x); e.on('a', f); e.once('a', (x) => seen.push('once' + x)); e.emit('a', 1); e.emit('a', 2); e.off('a', f); e.emit('a', 3); let thrown; try { e.emit('error', new Error('bad')); } catch (x) { thrown = x.message; } setTimeout(() => e.emit('ready', 7), 1); const [v] = await once(e, 'ready'); return [seen.join(), thrown, v, e.listenerCount('a')]; }",
        r#"["on1,once1,on2","bad",7,0]"#,
    ),
    (
        "stream: Readable.from piped through a Transform into a Writable; stream/promises pipeline",
        "import { Readable, Transform, Writable } from 'stream';\nimport { pipeline } from 'stream/promises';\nexport default async () => { const out = []; await pipeline(Readable.from(['a', 'b', 'c']), new Transform({ objectMode: true, transform(c, e, cb) { cb(null, c.toUpperCase()); } }), new Writable({ objectMode: true, write(c, e, cb) { out.push(c); cb(); } })); const chunks = []; for await (const c of Readable.from([1, 2])) chunks.push(c); return [out.join(''), chunks]; }",
        r#"["ABC",[1,2]]"#,
    ),
    (
        "fs streams: createWriteStream writes, createReadStream reads back in chunks, pipe copies",
        "import fs from 'fs';\nimport { finished } from 'stream/promises';\nexport default async () => { const w = fs.createWriteStream('/out/s.txt'); w.write('hello '); w.write(Buffer.from('world')); w.end('!'); await finished(w); const parts = []; const r = fs.createReadStream('/out/s.txt', { highWaterMark: 4 }); r.on('data', (c) => parts.push(c.length)); await new Promise((ok) => r.on('end', ok)); const copy = fs.createReadStream('/out/s.txt').pipe(fs.createWriteStream('/out/copy.txt')); await new Promise((ok) => copy.on('finish', ok)); return [fs.readFileSync('/out/s.txt', 'utf8'), parts, w.bytesWritten, fs.readFileSync('/out/copy.txt', 'utf8')]; }",
        r#"["hello world!",[4,4,4],12,"hello world!"]"#,
    ),
    (
        "util.promisify, node:crypto createHash, fs.promises complete",
        "import util from 'util';\nimport { createHash } from 'crypto';\nimport fs from 'fs';\nexport default async () => { const stat = util.promisify(fs.stat); const s = await stat('/in/a.txt'); await fs.promises.mkdir('/p', { recursive: true }); await fs.promises.writeFile('/p/a', 'x'); await fs.promises.appendFile('/p/a', 'y'); await fs.promises.copyFile('/p/a', '/p/b'); await fs.promises.rename('/p/b', '/p/c'); await fs.promises.access('/p/c'); const h = await fs.promises.open('/p/c'); const t = (await h.readFile()).toString(); await h.close(); await fs.promises.rm('/p/a'); return [s.size, createHash('sha256').update('abc').digest('hex').slice(0, 8), (await fs.promises.readdir('/p')), t, util.format('%s=%d', 'n', 5), util.inspect({ a: 1 })]; }",
        r#"[5,"ba7816bf",["c"],"xy","n=5","{ a: 1 }"]"#,
    ),
    (
        "an unknown bare import lists what can be imported",
        "import _ from 'lodash';\nexport default () => 1",
        "Importable by name: the packages exceljs, docx, pdf-lib, @pdf-lib/fontkit, pptxgenjs and Node's fs, fs/promises, path, buffer, events, stream, stream/promises, util, crypto, url, timers, timers/promises, process",
    ),
];

#[test]
fn cases() {
    let mut failures = Vec::new();
    for (name, src, expect) in CASES {
        let r = run_with(src, &[("/in/a.txt", "alpha")], None, RunOptions::default());
        let got = outcome(&r);
        if !got.contains(expect) {
            failures.push(format!("{name}:\n  expected to contain: {expect}\n  got: {got}\n  stderr: {:?}", r.stderr));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fs_writes_are_refused_while_validating() {
    let src = "import fs from 'fs';\nfs.writeFileSync('/x.txt', 'no');\nexport default () => 1;";
    let err = engine().validate(&MemTree::new(), &vp("/scripts/w.js"), src).unwrap_err().to_string();
    assert!(err.contains("is not available while a script is being validated"), "{err}");
}

/// Runs `src` as `/scripts/main.js` on a fresh tree with `engine`.
fn run_on(engine: &Engine, src: &str) -> RunResult {
    let t = tree(&[("/scripts/main.js", src)]);
    engine.run_blocking(Arc::new(TreeFs::new(t)), &vp("/scripts/main.js"), None, RunOptions::default())
}

#[test]
fn a_run_that_imports_a_package_starts_from_a_context_no_run_touched() {
    let engine = Engine::new(
        ModuleRegistry::with_builtins(),
        ScriptLimits { run_timeout_ms: 60_000, ..ScriptLimits::default() },
    );
    let poison = "import { PDFDocument } from 'pdf-lib';\nexport default () => { globalThis.leak = 1; Array.prototype.leak = 2; PDFDocument.leak = 3; Buffer.prototype.leak = 4; setInterval(() => {}, 1).unref(); return typeof PDFDocument.create; }";
    let probe = "import { PDFDocument } from 'pdf-lib';\nexport default () => [typeof globalThis.leak, typeof [].leak, typeof PDFDocument.leak, typeof Buffer.from('a').leak, typeof PDFDocument.create]";
    // The first run evaluates pdf-lib itself and starts a spare; the next ones take spares.
    assert_eq!(outcome(&run_on(&engine, poison)), r#""function""#);
    for round in 0..3 {
        std::thread::sleep(std::time::Duration::from_millis(300));
        let r = run_on(&engine, probe);
        assert_eq!(outcome(&r), r#"["undefined","undefined","undefined","undefined","function"]"#, "round {round}");
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(outcome(&run_on(&engine, poison)), r#""function""#);
    }
    // The probes really started from spares (some may have evaluated pdf-lib themselves when a
    // busy machine had not finished a spare within the wait).
    assert!(engine.runs_from_spares() >= 3, "only {} of 6 runs started from a spare", engine.runs_from_spares());
}
