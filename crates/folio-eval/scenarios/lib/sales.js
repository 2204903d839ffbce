/** The sales export as the reference solutions read it: the comment line dropped, amounts parsed,
 * each order counted once; totals per region, highest first. */
import * as fs from 'env:fs';
import { csv } from 'env:std';

export async function sales() {
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
