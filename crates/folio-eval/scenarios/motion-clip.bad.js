/** A still title card: every frame the same. */
import * as fs from 'env:fs';
import { render } from 'env:motion';

export default async function () {
  await fs.writeFile('/tmp/still.jsx', `export default function Scene() {
  return <div style={{ width: '100%', height: '100%', background: '#0b1020', color: '#fff', fontSize: 48 }}>Sales</div>;
}`);
  return render('/tmp/still.jsx', '/out/sales-clip.mp4', { durationSeconds: 3, fps: 15, width: 480, height: 270 });
}
