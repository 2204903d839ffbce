/** The one-page sales report: heading, total, chart, table. */
import * as charts from 'env:charts';
import { pdf } from 'env:documents';
import { sales } from './lib/sales.js';

export default async function () {
  const s = await sales();
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
