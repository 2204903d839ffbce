/** A count-up title card, rendered small. */
import * as fs from 'env:fs';
import { render } from 'env:motion';
import { sales } from './lib/sales.js';

export default async function () {
  const s = await sales();
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
