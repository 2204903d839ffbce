// CSV / TSV files and workbook sheets as a table: the first rows, a header row, sheet tabs.
import { useEffect, useState } from "preact/hooks";
import type { PreviewTableResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import { preview } from "./api";

export function TableView(props: { path: string; tag: string; compact?: boolean }) {
  const [table, setTable] = useState<PreviewTableResponse | null>(null);
  const [sheet, setSheet] = useState<string | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  useEffect(() => setSheet(null), [props.path]);
  useEffect(() => {
    setError(null);
    preview
      .table(props.path, sheet, props.compact ? 20 : 500)
      .then(setTable)
      .catch((e) => setError(problem(e)));
  }, [props.path, props.tag, sheet]);
  if (error) return <p class="error-text"><ProblemText problem={error} /></p>;
  if (!table) return <p class="muted media-status">Loading…</p>;
  const [head, ...rows] = table.rows;
  const width = Math.max(0, ...table.rows.map((r) => r.length));
  const pad = (r: string[]) => [...r, ...Array(Math.max(0, width - r.length)).fill("")];
  // Formula cells the file saved no result for: shown as their formula, marked, and counted.
  const uncalculated = new Set(table.uncalculated.map(([r, c]) => `${r}:${c}`));
  const cellClass = (r: number, c: number) => (uncalculated.has(`${r}:${c}`) ? "uncalculated" : undefined);
  const cellTitle = (r: number, c: number) =>
    uncalculated.has(`${r}:${c}`) ? "This formula has no saved result: the file was written without calculating it" : undefined;
  return (
    <div class={`table-view${props.compact ? " compact" : ""}`}>
      {table.sheets.length > 1 && (
        <div class="sheet-tabs">
          {table.sheets.map((s) => (
            <button key={s} class={`small ${s === table.sheet ? "" : "secondary"}`} onClick={() => setSheet(s)}>
              {s}
            </button>
          ))}
        </div>
      )}
      {table.rows.length === 0 ? (
        <p class="muted">This table is empty.</p>
      ) : (
        <div class="table-scroll">
          <table class="data-table">
            <thead>
              <tr>
                <th class="rownum">#</th>
                {pad(head).map((c, i) => (
                  <th key={i} class={cellClass(0, i)} title={cellTitle(0, i)}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i}>
                  <td class="rownum">{i + 2}</td>
                  {pad(r).map((c, j) => (
                    <td key={j} class={cellClass(i + 1, j)} title={cellTitle(i + 1, j)}>
                      {c}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {table.uncalculated.length > 0 && (
        <p class="table-note">
          {table.uncalculated.length === 1 ? "1 formula cell has" : `${table.uncalculated.length} formula cells have`} no
          saved result (shown as the formula): the file was written without calculating it. Recalculate it (env:spreadsheets
          recalculate) or open and save it in a spreadsheet application to see the values.
        </p>
      )}
      <p class="muted table-meta">
        {table.truncated
          ? `First ${table.rows.length} of ${table.totalRows} rows`
          : `${table.totalRows} row${table.totalRows === 1 ? "" : "s"}`}
        {table.sheet ? ` · sheet ${table.sheet}` : ""}
      </p>
    </div>
  );
}
