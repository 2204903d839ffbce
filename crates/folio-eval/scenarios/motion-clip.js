/** A count-up title card, rendered small. */
import * as fs from 'env:fs';
import { csv } from 'env:std';
import { render } from 'env:motion';

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
  await fs.writeFile('/tmp/count-up.jsx', `import { useFrame, useVideoConfig, interpolate } from 'folio/motion';
export default function Scene() {
  const frame = useFrame();
  const { durationInFrames } = useVideoConfig();
  const value = interpolate(frame, [0, durationInFrames - 1], [0, ${s.total}], { extrapolateRight: 'clamp' });
  return (<div style={{ width: '100%', height: '100%', background: '#0b1020', color: '#fff', display: 'flex',
    alignItems: 'center', justifyContent: 'center', fontFamily: 'sans-serif', fontSize: 48 }}>
    USD {Math.round(value).toLocaleString('en-US')}</div>);
}`);
  return render('/tmp/count-up.jsx', '/out/sales-clip.mp4', { durationSeconds: 3, fps: 15, width: 480, height: 270 });
}
