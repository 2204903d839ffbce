/** Sets the cell but leaves the totals' cached values stale. */
import * as sheets from 'env:spreadsheets';

export default async function () {
  return sheets.update('/inbox/budget-2026.xlsx', { sheet: 'Budget', cells: { D3: {{budget.new}} } });
}
