/** Region totals with a native bar chart, and the memo. */
import * as fs from 'env:fs';
import { csv } from 'env:std';
import * as sheets from 'env:spreadsheets';
import { docx } from 'env:documents';

async function sales(fs, csv) {
  const raw = await fs.readFile("/inbox/sales-export.csv");
  const seen = new Set();
  const rows = [];
  for (const r of csv.parse(raw.split("\n").filter((l) => !l.startsWith("#")).join("\n"))) {
    if (!r.order_id || seen.has(r.order_id)) continue;
    seen.add(r.order_id);
    rows.push({ ...r, amount: Number(String(r.amount).replace(/[$,\s]/g, "")) });
  }
  const by = {};
  for (const r of rows) by[r.region] = Math.round(((by[r.region] || 0) + r.amount) * 100) / 100;
  const total = Math.round(rows.reduce((a, r) => a + r.amount, 0) * 100) / 100;
  const regions = Object.entries(by).sort((a, b) => b[1] - a[1]);
  return { rows, total, regions, top: regions[0][0] };
}

export default async function () {
  const s = await sales(fs, csv);
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
