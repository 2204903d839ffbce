/** The one-page sales report: heading, total, chart, table. */
import * as fs from 'env:fs';
import { csv } from 'env:std';
import * as charts from 'env:charts';
import { pdf } from 'env:documents';

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
  const money = (x) => x.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  await charts.render({ type: 'bar', title: 'Sales by region (USD)', categories: s.regions.map((r) => r[0]),
    series: [{ name: 'Sales', values: s.regions.map((r) => r[1]) }] }, { output: '/tmp/regions.png', width: 700, height: 320 });
  return pdf.create('/out/sales-report.pdf', { title: 'Sales report', content: [
    { heading: 'Sales, January to June 2025' },
    { text: `Total sales: USD ${money(s.total)} over ${s.rows.length} orders. ${s.top} leads with USD ${money(s.regions[0][1])}.` },
    { image: '/tmp/regions.png', width: 420 },
    { table: { headers: ['Region', 'Sales (USD)'], rows: s.regions.map((r) => [r[0], money(r[1])]) } },
  ] });
}
