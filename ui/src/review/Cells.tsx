// A workbook's (or CSV's) cell diff: sheet tabs marked added / removed / changed / same, and for
// the chosen sheet a grid of the changed region — changed cells highlighted with old → new and
// their formulas, added rows and columns marked, removed ones listed — then the full list of
// changed cells (capped by the engine, with how many were left out).
import { useEffect, useState } from "preact/hooks";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import type { CellChange, ReviewCellsResponse, SheetDiff } from "../bindings";
import { cost, reviewApi } from "./api";

function colName(c: number): string {
  let s = "";
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function Value({ value, formula }: { value: string | null; formula: string | null }) {
  return (
    <span class="cell-value">
      {value ?? <i class="muted">empty</i>}
      {formula && <code class="formula">{formula.startsWith("=") ? formula : `=${formula}`}</code>}
    </span>
  );
}

function Changed({ c }: { c: CellChange }) {
  return (
    <>
      <span class="old">
        <Value value={c.old} formula={c.oldFormula} />
      </span>
      <span class="arrow">→</span>
      <span class="new">
        <Value value={c.new} formula={c.newFormula} />
      </span>
    </>
  );
}

function Grid({ sheet }: { sheet: SheetDiff }) {
  const grid = sheet.grid;
  if (!grid || grid.rows.length === 0) return null;
  const changed = new Map(sheet.cells.map((c) => [`${c.row}:${c.col}`, c]));
  const added = new Set(sheet.addedRows.map((r) => r.row));
  const addedCols = new Set(sheet.addedCols);
  const width = Math.max(grid.header.length, ...grid.rows.map((r) => r.length));
  const colIdx = Array.from({ length: width }, (_, i) => i);
  return (
    <div class="cell-grid-wrap">
      <table class="cell-grid" data-sheet={sheet.name}>
        <thead>
          <tr>
            <th />
            {colIdx.map((c) => (
              <th key={c} class={addedCols.has(c) ? "added-col" : ""} title={grid.header[c] ?? ""}>
                {colName(c)}
                {grid.header[c] && <span class="col-title">{grid.header[c]}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.rows.map((values, i) => {
            const r = grid.firstRow + i;
            const isAdded = added.has(r);
            return (
              <tr key={r} class={isAdded ? "added-row" : ""} data-row={r + 1}>
                <th>
                  {r + 1}
                  {isAdded && <span class="row-mark" title="added row">+</span>}
                </th>
                {colIdx.map((c) => {
                  const cell = changed.get(`${r}:${c}`);
                  if (cell)
                    return (
                      <td key={c} class="changed" data-cell={cell.address} title={`${cell.address} (was ${cell.oldAddress}): ${cell.old ?? ""} → ${cell.new ?? ""}`}>
                        <Changed c={cell} />
                      </td>
                    );
                  return (
                    <td key={c} class={addedCols.has(c) ? "added-col" : ""}>
                      {values[c] ?? ""}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
      {grid.cut && <div class="muted grid-cut">The grid shows part of the changed region; every listed change is below.</div>}
    </div>
  );
}

function Sheet({ sheet }: { sheet: SheetDiff }) {
  if (sheet.state === "same") return <div class="muted visual-wait">No cell of {sheet.name} differs.</div>;
  const facts = [
    sheet.changedCount > 0 && `${sheet.changedCount} changed cell${sheet.changedCount === 1 ? "" : "s"}`,
    sheet.addedRows.length > 0 && `${sheet.addedRows.length} added row${sheet.addedRows.length === 1 ? "" : "s"}`,
    sheet.removedRows.length > 0 && `${sheet.removedRows.length} removed row${sheet.removedRows.length === 1 ? "" : "s"}`,
    sheet.addedCols.length > 0 && `${sheet.addedCols.length} added column${sheet.addedCols.length === 1 ? "" : "s"}`,
    sheet.removedCols.length > 0 && `${sheet.removedCols.length} removed column${sheet.removedCols.length === 1 ? "" : "s"}`,
  ].filter(Boolean);
  return (
    <div class="sheet-diff" data-sheet-diff={sheet.name}>
      <div class="visual-summary sheet-facts">
        {sheet.state === "added" ? "A new sheet" : sheet.state === "removed" ? "Removed by the commit" : facts.join(" · ")}
      </div>
      <Grid sheet={sheet} />
      {sheet.removedRows.length > 0 && (
        <div class="removed-list">
          Removed rows (folder's numbering): {sheet.removedRows.map((r) => r + 1).join(", ")}
        </div>
      )}
      {sheet.removedCols.length > 0 && (
        <div class="removed-list">Removed columns: {sheet.removedCols.map(colName).join(", ")}</div>
      )}
      {sheet.cells.length > 0 && (
        <ul class="cell-list">
          {sheet.cells.map((c) => (
            <li key={c.address} data-change={c.address}>
              <b>{c.address}</b> <Changed c={c} />
            </li>
          ))}
        </ul>
      )}
      {sheet.leftOut > 0 && <div class="diff-note">{sheet.leftOut} more changed cells are not listed — open the file to see all of them.</div>}
    </div>
  );
}

export function CellsDiff({ path, version }: { path: string; version: number }) {
  const [diff, setDiff] = useState<ReviewCellsResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [tab, setTab] = useState<string | null>(null);
  useEffect(() => {
    setDiff(null);
    setError(null);
    reviewApi
      .cells(path)
      .then((d) => {
        setDiff(d);
        const first = d.sheets.find((s) => s.state !== "same") ?? d.sheets[0];
        setTab(first?.name ?? null);
      })
      .catch((e) => setError(problem(e)));
  }, [path, version]);
  if (error)
    return (
      <div class="visual-error error-text">
        <ProblemText problem={error} />
      </div>
    );
  if (!diff) return <div class="muted visual-wait">Comparing cells…</div>;
  const sheet = diff.sheets.find((s) => s.name === tab);
  return (
    <div class="cells-diff" data-cells={path}>
      <div class="sheet-tabs" role="tablist">
        {diff.sheets.map((s) => (
          <button key={s.name} role="tab" class={`sheet-tab ${s.state} ${s.name === tab ? "current" : ""}`} data-tab={s.name} onClick={() => setTab(s.name)}>
            {s.name}
            {s.state !== "same" && <span class="tab-state">{s.state}</span>}
          </button>
        ))}
        <div class="spacer" />
        <span class="muted">compared in {cost(diff.ms)}</span>
      </div>
      {diff.note && <div class="diff-note">{diff.note}</div>}
      {sheet ? <Sheet sheet={sheet} /> : <div class="muted visual-wait">Neither version has a sheet.</div>}
    </div>
  );
}
