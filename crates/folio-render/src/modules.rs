//! The `env:render` and `env:images` native modules for folio-script's registry. This layer only
//! parses arguments, moves bytes between the agent's tree (through the run's [`ScriptFs`]) and
//! the core, and shapes results; every decision lives in the core modules. The work runs on
//! tokio's blocking pool so a long render never stalls the script thread, and a cancelled run
//! writes nothing more.
//!
//! Register them with `registry.register_native(render_module(renderer))` and
//! `registry.register_native(images_module(limits))`.

use std::sync::Arc;

use folio_budget::RunBudget;
use folio_script::{CallContext, HostFn, HostValue, NativeFunction, NativeModule, ScriptFs};
use folio_vfs::VPath;
use serde_json::{Value, json};

use crate::error::RenderError;
use crate::images::{self, FORMAT_NAMES, ImageFormat, ImageLimits};
use crate::ops::{self, Fit, Overlay, ResizeOptions};
use crate::rasterize::{PageFile, RasterOptions, RasterResult, Renderer};

type Op = Arc<dyn Fn(&dyn ScriptFs, &[HostValue], &RunBudget) -> Result<Value, String> + Send + Sync>;

fn function(name: &str, writes: bool, op: Op) -> NativeFunction {
    let label = name.to_string();
    let call = HostFn::Async(Arc::new(move |args: Vec<HostValue>, cx: CallContext| {
        let op = Arc::clone(&op);
        let label = label.clone();
        Box::pin(async move {
            if writes && cx.read_only {
                return Err(format!(
                    "{label} writes files, which is not allowed while a script is being validated — call it inside the default export"
                ));
            }
            let fs = Arc::clone(&cx.fs);
            let cancel = cx.cancel.clone();
            let budget = cx.budget.clone();
            let working = cx.work.begin();
            let out = tokio::task::spawn_blocking(move || {
                let _working = working;
                op(fs.as_ref(), &args, &budget)
            })
            .await
            .map_err(|e| format!("the host call did not complete: {e}"))??;
            if cancel.is_cancelled() {
                return Err("the run was cancelled".into());
            }
            Ok(HostValue::Json(out))
        }) as folio_script::registry::HostFuture
    }));
    NativeFunction { name: name.to_string(), call }
}

fn arg_str<'a>(args: &'a [HostValue], i: usize, what: &str) -> Result<&'a str, String> {
    args.get(i).and_then(HostValue::as_str).ok_or_else(|| format!("argument {} ({what}) must be a string path", i + 1))
}

fn arg_json(args: &[HostValue], i: usize) -> Value {
    match args.get(i) {
        Some(HostValue::Json(v)) => v.clone(),
        _ => Value::Null,
    }
}

fn path(raw: &str) -> Result<VPath, String> {
    VPath::parse(raw).map_err(|e| format!("{raw}: {e}"))
}

fn read(fs: &dyn ScriptFs, raw: &str) -> Result<(VPath, Vec<u8>), String> {
    let p = path(raw)?;
    let bytes = fs.read(&p)?;
    Ok((p, bytes))
}

/// `env:render`: `rasterize(path, outDir, {pages, dpi | width, format, quality})`, also exported
/// as `render`, and `capabilities()`, the doctor's rows for this host.
/// Computes the doctor's rows now (running each found tool); hosts that already have them use
/// [`render_module_with`].
pub fn render_module(renderer: Arc<Renderer>) -> NativeModule {
    let rows = crate::capabilities(&renderer);
    render_module_with(renderer, &rows)
}

/// `env:render` with `rows`, the doctor's rows of this start: what this host can render, written
/// at the end of /std/render/README.md, so the agent learns it before writing code rather than
/// from a refusal, and returned by capabilities() for a script that decides at run time.
pub fn render_module_with(renderer: Arc<Renderer>, rows: &[crate::Capability]) -> NativeModule {
    // Only the tools this module uses (doctor::USED_BY): the agent is never told about one it
    // cannot reach through env:render.
    let rows = &crate::doctor::rows_for("render", rows);
    let mut on_host = String::from("\n\n## On this host\n\n");
    for row in rows {
        let mark = if row.ok { "available" } else { "MISSING" };
        on_host.push_str(&format!("- {}: {mark} — {}", row.name, row.detail));
        if !row.ok {
            on_host.push_str(&format!(" (the person can fix it with: {})", row.fix));
        }
        on_host.push('\n');
    }
    let rows = serde_json::to_value(rows).unwrap_or(Value::Null);
    let capabilities: Op = Arc::new(move |_, _, _| Ok(rows.clone()));
    let op: Op = Arc::new(move |fs, args, budget| {
        let (input, bytes) = read(fs, arg_str(args, 0, "the document")?)?;
        let out_dir = path(arg_str(args, 1, "the output directory")?)?;
        let mut opts = RasterOptions::from_json(&arg_json(args, 2)).map_err(|e| e.to_string())?;
        // Pages that will not fit the tree are refused before the first is written.
        opts.room = fs.room();
        // Each page is written as soon as it is encoded (on the encoder thread, while PDFium
        // renders the next one); the directory is made when the first page is ready, so a call
        // refused up front leaves nothing behind.
        let mut pages = Vec::new();
        let mut made_dir = false;
        let done = renderer
            .rasterize_within(input.as_str(), &bytes, &opts, budget, |p| {
                let mut write = || -> Result<PageFile, String> {
                    if !made_dir {
                        fs.mkdir(&out_dir)?;
                        made_dir = true;
                    }
                    let target = out_dir.join(&p.file_name).map_err(|e| e.to_string())?;
                    fs.write(&target, &p.bytes)?;
                    Ok(PageFile { page: p.page, path: target.to_string(), width: p.width, height: p.height })
                };
                pages.push(write().map_err(RenderError::Output)?);
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        let result = RasterResult { pages, page_count: done.page_count, warnings: done.warnings, kind: done.kind };
        serde_json::to_value(result).map_err(|e| e.to_string())
    });
    NativeModule {
        name: "render".into(),
        description: "Pictures of documents: rasterize PDF, Office (via LibreOffice) and image files to PNG/JPEG/WebP pages you can look at.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: RENDER_DTS.into(),
        docs: format!("# env:render\n\nRender to /tmp (not /out) and look at the pages with view_image. Pages are 1-based; the default is every page up to 50 per call, at 150 dpi. Encrypted PDFs and Office files without LibreOffice on the host fail with a message naming the fix.{on_host}"),
        functions: vec![
            function("rasterize", true, Arc::clone(&op)),
            function("render", true, op),
            function("capabilities", false, capabilities),
        ],
        js_api: None,
    }
}

const RENDER_DTS: &str = r#"export interface RasterizeOptions {
  /** 1-based pages, a single page, or "all" (default: all, at most 50 per call). */
  pages?: number[] | number | "all";
  /** Resolution in dots per inch (default 150). Give dpi or width, not both. */
  dpi?: number;
  /** Pixel width of every page; the height follows the page's shape. */
  width?: number;
  /** "png" (default), "jpeg", "webp" or "gif". Images keep their own format by default. */
  format?: "png" | "jpeg" | "jpg" | "webp" | "gif";
  /** JPEG quality 1–100 (default 85). */
  quality?: number;
}
export interface RasterizeResult {
  /** One entry per rendered page: files are <outDir>/<stem>-p<N>.<ext> (<stem>.<ext> for an image). */
  pages: { page: number; path: string; width: number; height: number }[];
  /** Pages in the whole document. */
  pageCount: number;
  /** Pages left out, options ignored. */
  warnings: string[];
  kind: "pdf" | "office" | "image";
}
/** Renders a PDF, an Office file (docx, xlsx, pptx, …) or an image to page images in outDir. */
export function rasterize(path: string, outDir: string, options?: RasterizeOptions): Promise<RasterizeResult>;
/** The same as rasterize. */
export function render(path: string, outDir: string, options?: RasterizeOptions): Promise<RasterizeResult>;
/** One row per tool env:render uses (pdfium, libreoffice), as `folio doctor` prints it for this host. */
export interface Capability {
  name: string;
  /** True when it works here. */
  ok: boolean;
  /** True when Folio cannot work without it. */
  required: boolean;
  /** The path and version found, or what is wrong. */
  detail: string;
  /** The command the person runs to fix it (empty when ok). */
  fix: string;
}
/** What this host can do, checked when the environment started. */
export function capabilities(): Promise<Capability[]>;
"#;

/// The page an options object names (`page`, 1-based; default 1), for TIFF inputs.
fn page_of(opts: &Value) -> Result<u32, String> {
    match opts.get("page") {
        None | Some(Value::Null) => Ok(1),
        Some(v) => v.as_u64().and_then(|p| u32::try_from(p).ok()).filter(|&p| p >= 1).ok_or_else(|| {
            format!(
                "page must be a whole number from 1 (a TIFF's page), got {v} — hint: {{page: 2}} for the second page"
            )
        }),
    }
}

/// Decodes a VFS image within the limits: page `page` of a TIFF, an SVG drawn at its own size.
fn load(fs: &dyn ScriptFs, raw: &str, limits: &ImageLimits, page: u32) -> Result<image::DynamicImage, String> {
    let (p, bytes) = read(fs, raw)?;
    let source = images::Source { page, ..images::Source::default() };
    images::decode_with(p.as_str(), &bytes, limits, source).map_err(|e| e.to_string())
}

/// The scale an SVG is drawn at so that a resize to `width`×`height` only ever shrinks it: a
/// vector drawing enlarged stays sharp. 1.0 for raster inputs and for sizes at or under its own.
fn svg_scale(name: &str, bytes: &[u8], width: Option<u32>, height: Option<u32>) -> f32 {
    if images::ImageFormat::sniff(bytes) != Some(ImageFormat::Svg)
        && folio_kinds::FileKind::from_name(name) != Some(folio_kinds::FileKind::Svg)
    {
        return 1.0;
    }
    let Ok((w, h)) = crate::svg::svg_size(name, bytes) else { return 1.0 };
    let ratio = |want: Option<u32>, own: f32| want.map_or(0.0, |v| v as f32 / own.max(1.0));
    ratio(width, w).max(ratio(height, h)).clamp(1.0, 64.0)
}

/// Encodes `img` for the output path: an explicit `format` wins, else the output's extension.
fn save(fs: &dyn ScriptFs, raw_out: &str, img: &image::DynamicImage, opts: &Value) -> Result<Value, String> {
    let out = path(raw_out)?;
    let format = match opts.get("format").and_then(Value::as_str) {
        Some(f) => ImageFormat::from_name(f).ok_or_else(|| format!("format \"{f}\" is not supported — hint: use one of {FORMAT_NAMES}"))?,
        None => ImageFormat::from_path(out.as_str()).ok_or_else(|| {
            format!("{out}: the extension names no format this module writes — hint: end the name with .png, .jpg, .webp or .gif, or pass {{format}}")
        })?,
    };
    let quality = opts.get("quality").and_then(Value::as_u64).map(|q| q.clamp(1, 100) as u8);
    let bytes = images::encode(out.as_str(), img, format, quality).map_err(|e| e.to_string())?;
    if let Some(parent) = out.parent() {
        fs.mkdir(&parent)?;
    }
    fs.write(&out, &bytes)?;
    Ok(
        json!({"path": out.as_str(), "format": format, "width": img.width(), "height": img.height(), "bytes": bytes.len()}),
    )
}

fn num(opts: &Value, key: &str) -> Option<i64> {
    opts.get(key).and_then(Value::as_i64)
}

fn need_u32(opts: &Value, key: &str, call: &str) -> Result<u32, String> {
    opts.get(key).and_then(Value::as_u64).and_then(|v| u32::try_from(v).ok()).ok_or_else(|| {
        format!("{call} needs {key} as a whole number of pixels — hint: {call}(in, out, {{left, top, width, height}})")
    })
}

/// `env:images`: describe, resize, crop, rotate, convert, composite, contactSheet.
pub fn images_module(limits: ImageLimits) -> NativeModule {
    let mut functions = Vec::new();
    functions.push(function(
        "describe",
        false,
        Arc::new(|fs, args, _| {
            let (p, bytes) = read(fs, arg_str(args, 0, "the image")?)?;
            let info = images::describe(p.as_str(), &bytes).map_err(|e| e.to_string())?;
            let mut v = serde_json::to_value(info).map_err(|e| e.to_string())?;
            v["path"] = json!(p.as_str());
            Ok(v)
        }),
    ));
    functions.push(function(
        "resize",
        true,
        Arc::new(move |fs, args, _| {
            let opts = arg_json(args, 2);
            let (p, bytes) = read(fs, arg_str(args, 0, "the input")?)?;
            let want = |k: &str| opts.get(k).and_then(Value::as_u64).map(|v| v.min(u64::from(u32::MAX)) as u32);
            let source = images::Source {
                page: page_of(&opts)?,
                svg_scale: match opts.get("withoutEnlargement").and_then(Value::as_bool) {
                    Some(true) => 1.0,
                    _ => svg_scale(p.as_str(), &bytes, want("width"), want("height")),
                },
            };
            let img = images::decode_with(p.as_str(), &bytes, &limits, source).map_err(|e| e.to_string())?;
            let fit = match opts.get("fit").and_then(Value::as_str) {
                None => Fit::Contain,
                Some(f) => {
                    Fit::from_name(f).ok_or_else(|| format!("fit \"{f}\" is not one of contain, cover, fill"))?
                }
            };
            let o = ResizeOptions {
                width: opts.get("width").and_then(Value::as_u64).map(|v| v.min(u64::from(u32::MAX)) as u32),
                height: opts.get("height").and_then(Value::as_u64).map(|v| v.min(u64::from(u32::MAX)) as u32),
                fit,
                without_enlargement: opts.get("withoutEnlargement").and_then(Value::as_bool).unwrap_or(false),
            };
            let name = arg_str(args, 0, "the input")?;
            let out = ops::resize(name, &img, &o).map_err(|e| e.to_string())?;
            save(fs, arg_str(args, 1, "the output")?, &out, &opts)
        }),
    ));
    functions.push(function(
        "crop",
        true,
        Arc::new(move |fs, args, _| {
            let opts = arg_json(args, 2);
            let name = arg_str(args, 0, "the input")?;
            let img = load(fs, name, &limits, page_of(&opts)?)?;
            let (l, t) = (need_u32(&opts, "left", "crop")?, need_u32(&opts, "top", "crop")?);
            let (w, h) = (need_u32(&opts, "width", "crop")?, need_u32(&opts, "height", "crop")?);
            let out = ops::crop(name, &img, l, t, w, h).map_err(|e| e.to_string())?;
            save(fs, arg_str(args, 1, "the output")?, &out, &opts)
        }),
    ));
    functions.push(function(
        "rotate",
        true,
        Arc::new(move |fs, args, _| {
            let opts = arg_json(args, 2);
            let name = arg_str(args, 0, "the input")?;
            let (p, bytes) = read(fs, name)?;
            let info = images::describe(p.as_str(), &bytes).map_err(|e| e.to_string())?;
            if info.animated {
                return Err(format!(
                    "{p} is animated ({} frames); rotating would drop frames — hint: convert it to a still first",
                    info.frames
                ));
            }
            let source = images::Source { page: page_of(&opts)?, ..images::Source::default() };
            let img = images::decode_with(p.as_str(), &bytes, &limits, source).map_err(|e| e.to_string())?;
            let out = ops::rotate(name, &img, num(&opts, "angle"), info.orientation).map_err(|e| e.to_string())?;
            save(fs, arg_str(args, 1, "the output")?, &out, &opts)
        }),
    ));
    functions.push(function(
        "convert",
        true,
        Arc::new(move |fs, args, _| {
            let opts = arg_json(args, 2);
            let img = load(fs, arg_str(args, 0, "the input")?, &limits, page_of(&opts)?)?;
            save(fs, arg_str(args, 1, "the output")?, &img, &opts)
        }),
    ));
    functions.push(function(
        "composite",
        true,
        Arc::new(move |fs, args, _| {
            let base = load(fs, arg_str(args, 0, "the base image")?, &limits, 1)?;
            let Value::Array(layers) = arg_json(args, 2) else {
                return Err("composite needs a list of overlays — hint: composite(base, out, [{input: '/a.png', left: 10, top: 10}])".into());
            };
            let mut overlays = Vec::new();
            for layer in &layers {
                let input = layer.get("input").and_then(Value::as_str).ok_or("every overlay needs input: a path")?;
                overlays.push(Overlay {
                    image: load(fs, input, &limits, page_of(layer)?)?,
                    left: num(layer, "left").unwrap_or(0),
                    top: num(layer, "top").unwrap_or(0),
                    opacity: layer.get("opacity").and_then(Value::as_f64).unwrap_or(1.0) as f32,
                });
            }
            save(fs, arg_str(args, 1, "the output")?, &ops::composite(&base, &overlays), &Value::Null)
        }),
    ));
    functions.push(function(
        "contactSheet",
        true,
        Arc::new(move |fs, args, _| {
            let Some(HostValue::Json(Value::Array(inputs))) = args.first() else {
                return Err("contactSheet needs a list of image paths first — hint: contactSheet(['/a.png', '/b.png'], '/out/sheet.png')".into());
            };
            let opts = arg_json(args, 2);
            let tiles = inputs
                .iter()
                .map(|v| load(fs, v.as_str().ok_or("every input must be a path string")?, &limits, 1))
                .collect::<Result<Vec<_>, String>>()?;
            let cell = opts.get("cell").and_then(Value::as_u64).unwrap_or(200).min(u64::from(u32::MAX)) as u32;
            let columns = opts.get("columns").and_then(Value::as_u64).map(|c| c.min(1000) as u32);
            let background = ops::parse_colour(opts.get("background").and_then(Value::as_str).unwrap_or("#ffffff"))
                .map_err(|e| e.to_string())?;
            let sheet = ops::contact_sheet(&tiles, cell, columns, background).map_err(|e| e.to_string())?;
            save(fs, arg_str(args, 1, "the output")?, &sheet, &opts)
        }),
    ));
    NativeModule {
        name: "images".into(),
        description: "Image files: describe (no decode), resize, crop, rotate, convert, composite, contactSheet (reads PNG, JPEG, WebP, GIF, TIFF pages and SVG; writes PNG, JPEG, WebP, GIF).".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: IMAGES_DTS.into(),
        docs: "# env:images\n\nInputs: PNG, JPEG, GIF, WebP, TIFF (multi-page and BigTIFF; LZW, Deflate, PackBits, JPEG, CCITT G4, none) and SVG. The output extension picks the encoder (.png .jpg .webp .gif) unless {format} is given; TIFF and SVG are read, not written. A TIFF is a document of pages: describe() lists each page's size, compression and bit depth, and every operation takes {page: N} (1-based, default 1). An SVG is drawn at its own size (resize draws it at the size asked, so it stays sharp), with the bundled fonts; its scripts and external references are ignored. Inputs larger than 100 megapixels (a TIFF page's declared size too) are refused before decoding. rotate() without an angle applies the EXIF orientation.\n\n## On this host\n\n- PNG, JPEG, GIF, WebP, TIFF and SVG are built in; nothing outside Folio is needed.\n".into(),
        functions,
        js_api: None,
    }
}

const IMAGES_DTS: &str = r#"/** One page (IFD) of a TIFF. `unsupported` says why it cannot be decoded here, with the fix. */
export interface TiffPage { page: number; width: number; height: number; compression: string; bitDepth: number; samples: number; color: string; unsupported?: string }
export interface ImageInfo { path: string; format: "png" | "jpeg" | "gif" | "webp" | "tiff" | "svg"; width: number; height: number; orientation: number | null; animated: boolean; frames: number; hasAlpha: boolean; bytes: number; /** TIFF: every page; `frames` is the page count. */ pages?: TiffPage[]; bigtiff?: boolean; /** SVG: it has scripts, which are never run. */ scriptsIgnored?: boolean }
export interface Written { path: string; format: string; width: number; height: number; bytes: number }
export interface Output { format?: "png" | "jpeg" | "jpg" | "webp" | "gif"; quality?: number }
/** Which page of a TIFF input (1-based, default 1); other formats have page 1 only. */
export interface Input { page?: number }
/** Format, size, EXIF orientation and animation, read from the header (no pixels decoded); a TIFF's pages. */
export function describe(path: string): Promise<ImageInfo>;
/** Resizes; needs width or height. fit applies when both are given (default "contain"). An SVG is drawn at the asked size. */
export function resize(input: string, output: string, options: Output & Input & { width?: number; height?: number; fit?: "contain" | "cover" | "fill"; withoutEnlargement?: boolean }): Promise<Written>;
/** Cuts out a rectangle that must lie inside the image. */
export function crop(input: string, output: string, box: Output & Input & { left: number; top: number; width: number; height: number }): Promise<Written>;
/** Rotates by a multiple of 90° clockwise; without angle, applies the EXIF orientation. */
export function rotate(input: string, output: string, options?: Output & Input & { angle?: number }): Promise<Written>;
/** Re-encodes: the output extension (or format) picks png, jpeg, webp or gif (a TIFF page or an SVG becomes one of them). */
export function convert(input: string, output: string, options?: Output & Input): Promise<Written>;
/** Lays images over a base, in order. */
export function composite(base: string, output: string, overlays: { input: string; left?: number; top?: number; opacity?: number; page?: number }[]): Promise<Written>;
/** A grid of square cells, each image fitted inside one. */
export function contactSheet(inputs: string[], output: string, options?: Output & { cell?: number; columns?: number; background?: string }): Promise<Written>;
"#;
