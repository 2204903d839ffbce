/** Counts every line, the duplicate included. */
import * as fs from 'env:fs';
import { csv } from 'env:std';

export default async function () {
  const raw = await fs.readFile('/inbox/sales-export.csv');
  const rows = csv.parse(raw.split('\n').filter((l) => !l.startsWith('#')).join('\n'));
  const byRegion = {};
  let total = 0;
  for (const r of rows) {
    const amount = Number(String(r.amount).replace(/[$,\s]/g, ''));
    byRegion[r.region] = (byRegion[r.region] || 0) + amount;
    total += amount;
  }
  const top = Object.entries(byRegion).sort((a, b) => b[1] - a[1])[0][0];
  await fs.writeFile('/out/summary.json', JSON.stringify({ rows: rows.length, total, by_region: byRegion, top_region: top }));
}
