// env:spreadsheets — workbooks in and out (xlsx, xlsm, xlsb, xls, ods, csv).

/** A cell's value: numbers, text, booleans, null; dates are ISO text, errors their marker ("#DIV/0!"). */
export type CellValue = number | string | boolean | null;
/** A record: header → value. */
export type Row = Record<string, CellValue>;
/** A cell to write: a value, "=FORMULA", or {formula, value, style, numFmt}. {value} alone forces text. */
export type CellInput = CellValue | { formula?: string; value?: CellValue; style?: Style; numFmt?: string };

export interface Style {
  bold?: boolean; italic?: boolean; underline?: boolean; strike?: boolean;
  font?: string; fontSize?: number; color?: string; fill?: string;
  border?: 'thin' | 'medium' | 'thick' | 'dashed' | 'dotted' | 'double' | 'hair' | 'none'; borderColor?: string;
  align?: 'left' | 'center' | 'right' | 'justify' | 'fill'; valign?: 'top' | 'middle' | 'bottom'; wrap?: boolean;
  /** Excel number format: '#,##0', '0.0%', '$#,##0.00', 'yyyy-mm-dd'. */
  numFmt?: string;
}

/** The shared chart spec; in a workbook series may give ranges ("Sheet1!$B$2:$B$13"). */
export interface ChartSpec {
  type: 'bar' | 'line' | 'area' | 'pie' | 'scatter' | 'combo';
  title?: string; categories?: string[] | string;
  series: { name: string; values: number[] | string; x?: number[] | string; type?: 'bar' | 'line'; axis?: 'primary' | 'secondary' }[];
  horizontal?: boolean; stacked?: boolean; xTitle?: string; yTitle?: string;
  /** The value axis minimum; bars and areas whose values are all ≥ 0 start at 0 unless this says otherwise. */
  yMin?: number;
  legend?: 'bottom' | 'right' | 'none'; numberFormat?: string;
  /** Top-left cell of the chart ("F2"); default: right of the data. */
  at?: string;
  /** The chart's size in pixels (default 640 × 360). */
  width?: number; height?: number;
}

export interface SheetSpec {
  name?: string;
  /** Column order, headers, widths, number formats and styles (for records: key picks the field). */
  /** A column's width is in characters of the default font, as Excel measures it. */
  columns?: (string | { header?: string; key?: string; width?: number; numFmt?: string; style?: Style })[];
  /** Records (a bold header row is written) or arrays (written as they are). */
  rows?: (Record<string, CellInput> | CellInput[])[];
  header?: boolean; headerStyle?: Style;
  /** Cells by address: { B14: '=SUM(B2:B13)' }. */
  cells?: Record<string, CellInput>;
  /** Styles by range: { 'A1:D1': { bold: true, fill: '#DDEBF7' } }. */
  styles?: Record<string, Style> | ({ range: string } & Style)[];
  /** Column widths in characters, by letter: { A: 14 }. */
  widths?: Record<string, number>;
  /** "A2" freezes the first row; {rows, columns} also works. */
  freeze?: string | { rows?: number; columns?: number };
  /** A range, or true for the header row over the data. */
  autoFilter?: string | boolean;
  merge?: string[];
  charts?: ChartSpec[];
  hidden?: boolean;
}

export interface SheetSummary { name: string; rows: number; columns: number; headers: string[]; sample: Row[] }
export interface ReadOptions {
  /** A name or a 1-based index; default the first worksheet. */
  sheet?: string | number;
  /** The header row (1-based); 0: no header, columns named A, B, C. Default 1. */
  headerRow?: number;
  offset?: number;
  /** Default 1000, at most 100000. */
  limit?: number;
  /** Also return each row's formulas (header → "=SUM(B2:B9)"). */
  formulas?: boolean;
}
export interface ReadResult {
  sheet: string; headers: string[]; rows: Row[]; totalRows: number; offset: number;
  /** The offset of the next page, null after the last. */
  nextOffset: number | null;
  formulas?: Record<string, string>[];
}
export interface WriteResult {
  path: string; bytes: number; sheets: { name: string; rows: number; columns: number }[];
  formulas: number; cached: number;
  /** Formula cells written without a cached value ("Sheet!B4: function XLOOKUP"); recalculate fills them. */
  uncached: string[]; charts: number; hint?: string;
}
export interface CheckResult {
  path: string;
  /** True when there are no formula errors and every formula cell has a cached value. */
  ok: boolean; formulas: number;
  errorCount: number; errors: { sheet: string; cell: string; error: string; formula: string | null }[];
  uncachedCount: number; uncached: { sheet: string; cell: string; formula: string | null }[];
  hint?: string; recalculated?: boolean; changedCells?: number;
}

/** Format, size, and each sheet's records, columns, headers and a sample. */
export function describe(path: string): Promise<{ path: string; format: string; bytes: number; sheets: SheetSummary[] }>;
/** Sheet names in workbook order. */
export function sheets(path: string): Promise<string[]>;
/** Records of one sheet, one page at a time. */
export function read(path: string, opts?: ReadOptions): Promise<ReadResult>;
/** Raw rows (arrays), header row included. */
export function readRows(path: string, opts?: { sheet?: string | number; offset?: number; limit?: number }): Promise<CellValue[][]>;
/** Records or raw rows to a new single-sheet workbook (.xlsx) or CSV. */
export function write(path: string, rows: (Row | CellValue[])[], opts?: { sheet?: string; headers?: string[]; noHeader?: boolean; delimiter?: string }): Promise<WriteResult>;
/** Several named sheets in one workbook. */
export function writeSheets(path: string, sheets: Record<string, (Row | CellValue[])[]>, opts?: { noHeader?: boolean }): Promise<WriteResult>;
/** A styled workbook from a spec. */
export function create(path: string, spec: { sheets: SheetSpec[] | Record<string, SheetSpec> }): Promise<WriteResult>;
/** Appends rows in the sheet's header order (new fields become new columns); creates the file if missing. Keeps every style. */
export function append(path: string, rows: (Row | CellValue[])[], opts?: { sheet?: string | number }): Promise<{ path: string; sheet: string; appended: number; firstRow: number; lastRow: number; addedColumns: string[] }>;
/** Edits cells in place (xlsx/xlsm), keeping styles, charts and macros. */
export function update(path: string, edit: { sheet?: string | number; cells: Record<string, CellValue | { formula: string } | { value: CellValue }> }): Promise<{ path: string; sheet: string; updated: number; formulas: number; hint?: string }>;
/** What a row/column insert or delete moved. */
export interface StructureResult {
  path: string; sheet: string;
  inserted?: { rows?: string; columns?: string }; deleted?: { rows?: string; columns?: string };
  /** Formula texts (cells on every sheet, defined names, chart series, rules) whose references moved. */
  formulasShifted: number;
  /** Where a reference named only deleted cells and now reads #REF! ("Summary!B2"). */
  refErrors: string[];
  /** Formula cells whose cached value was dropped; recalculate(path) refills them. */
  uncached: number;
  parts: string[]; warning?: string; hint?: string;
}
/** Inserts `count` (1) rows before row `at` (1-based), moving formulas, names, charts, rules, validations and merges as Excel does. */
export function insertRows(path: string, opts: { sheet?: string | number; at: number; count?: number }): Promise<StructureResult>;
/** Deletes rows `at`..`at+count-1`; references to them become #REF! (listed in refErrors). */
export function deleteRows(path: string, opts: { sheet?: string | number; at: number; count?: number }): Promise<StructureResult>;
/** Inserts `count` (1) columns before column `at` ('C' or 3). */
export function insertColumns(path: string, opts: { sheet?: string | number; at: string | number; count?: number }): Promise<StructureResult>;
/** Deletes columns from `at` ('C' or 3). */
export function deleteColumns(path: string, opts: { sheet?: string | number; at: string | number; count?: number }): Promise<StructureResult>;
/** One sheet to CSV. */
export function toCsv(input: string, output: string, opts?: { sheet?: string | number; delimiter?: string }): Promise<{ path: string; sheet: string; rows: number; bytes: number }>;
/** A CSV (any common encoding) to a workbook with a bold, frozen header row. */
export function fromCsv(input: string, output: string, opts?: { sheet?: string; delimiter?: string }): Promise<WriteResult>;
/** LibreOffice recalculates every formula and stores its result (xlsx); then the check of the result. */
export function recalculate(path: string, opts?: { out?: string }): Promise<CheckResult>;
/** Every formula error with sheet and cell, and formula cells without a cached value. */
export function check(path: string): Promise<CheckResult>;
