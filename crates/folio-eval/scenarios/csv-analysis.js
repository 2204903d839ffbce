/** Totals of the sales export: comment line dropped, amounts parsed, each order counted once. */
import * as fs from 'env:fs';
import { csv } from 'env:std';

export default async function () {
  const raw = await fs.readFile('/inbox/sales-export.csv');
  const body = raw.split('\n').filter((l) => !l.startsWith('#')).join('\n');
  const seen = new Set();
  const byRegion = {};
  let total = 0;
  for (const r of csv.parse(body)) {
    if (!r.order_id || seen.has(r.order_id)) continue;
    seen.add(r.order_id);
    const amount = Number(String(r.amount).replace(/[$,\s]/g, ''));
    byRegion[r.region] = (byRegion[r.region] || 0) + amount;
    total += amount;
  }
  const round = (x) => Math.round(x * 100) / 100;
  for (const k of Object.keys(byRegion)) byRegion[k] = round(byRegion[k]);
  const top = Object.entries(byRegion).sort((a, b) => b[1] - a[1])[0][0];
  const summary = { rows: seen.size, total: round(total), by_region: byRegion, top_region: top };
  await fs.writeFile('/out/summary.json', JSON.stringify(summary, null, 2));
  return summary;
}
