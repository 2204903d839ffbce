/** The numbers, unstyled and unfrozen. */
import * as sheets from 'env:spreadsheets';
import { sales } from './lib/sales.js';

export default async function () {
  const s = await sales();
  return sheets.create('/out/regions.xlsx', { sheets: [{ name: 'Regions', header: false,
    rows: [['Region', 'Sales', 'Share'], ...s.regions.map((r) => [r[0], r[1], r[1] / s.total])] }] });
}
