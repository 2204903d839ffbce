/** Region totals with a native bar chart, and the memo. */
import * as sheets from 'env:spreadsheets';
import { docx } from 'env:documents';
import { sales } from './lib/sales.js';

export default async function () {
  const s = await sales();
  const n = s.regions.length;
  await sheets.create('/out/regional-chart.xlsx', { sheets: [{ name: 'Regions',
    rows: [['Region', 'Sales (USD)'], ...s.regions], styles: { 'A1:B1': { bold: true }, [`B2:B${n + 1}`]: { numFmt: '#,##0' } },
    charts: [{ type: 'bar', title: 'Sales by region', categories: `Regions!$A$2:$A$${n + 1}`, series: [{ name: 'Sales', values: `Regions!$B$2:$B$${n + 1}` }], at: 'D2' }] }] });
  const total = s.total.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  await docx.create('/out/memo.docx', { title: 'Sales memo', content: [
    { heading: 'Sales by region' },
    { text: `Total sales were USD ${total} over ${s.rows.length} orders. ${s.top} was the top region.` },
    { bullets: s.regions.map((r) => `${r[0]}: USD ${r[1].toFixed(2)}`) },
  ] });
  return { regions: n };
}
