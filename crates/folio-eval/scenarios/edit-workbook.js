/** Sets Marketing's March cell and recalculates so the totals' cached values follow. */
import * as sheets from 'env:spreadsheets';

export default async function () {
  const rows = await sheets.readRows('/inbox/budget-2026.xlsx', { sheet: 'Budget' });
  const r = rows.findIndex((row) => row[0] === 'Marketing');
  const c = rows[0].indexOf('Mar');
  const cell = String.fromCharCode(65 + c) + (r + 1);
  await sheets.update('/inbox/budget-2026.xlsx', { sheet: 'Budget', cells: { [cell]: {{budget.new}} } });
  return sheets.recalculate('/inbox/budget-2026.xlsx');
}
