/** The numbers without a chart, and a memo without the total. */
import * as sheets from 'env:spreadsheets';
import { docx } from 'env:documents';
import { sales } from './lib/sales.js';

export default async function () {
  const s = await sales();
  await sheets.create('/out/regional-chart.xlsx', { sheets: [{ name: 'Regions', rows: [['Region', 'Sales'], ...s.regions] }] });
  await docx.create('/out/memo.docx', { content: [{ text: `${s.top} was the top region.` }] });
}
