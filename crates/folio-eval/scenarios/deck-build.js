/** The sales review deck: five slides, each with notes. */
import * as fs from 'env:fs';
import { csv } from 'env:std';
import * as slides from 'env:slides';

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
  const money = (x) => '$' + x.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const deck = await slides.create({ title: 'Sales review', slides: [
    { title: 'Sales review', bullets: [`${s.rows.length} orders, January to June 2025`], notes: 'What the export shows, in five slides.' },
    { title: 'Total sales', metric: { value: money(s.total), caption: 'all regions' }, notes: `Total sales were ${money(s.total)}.` },
    { title: 'Regions compared', chart: { type: 'bar', categories: s.regions.map((r) => r[0]), series: [{ name: 'Sales', values: s.regions.map((r) => r[1]) }] }, notes: 'Bars in descending order of sales.' },
    { title: 'Top region', bullets: [`${s.top}: ${money(s.regions[0][1])}`], notes: `${s.top} leads the regions.` },
    { title: 'Next steps', bullets: ['Review the smallest region', 'Repeat next quarter'], notes: 'Questions and next steps.' },
  ] }, '/out/sales-review.pptx');
  return deck;
}
