// Checks spring() and random() from 'remotion' against values computed once from the remotion
// npm package (its version is in the JSON); any case off by more than 1e-9 fails the render.
import { random, spring, useCurrentFrame } from 'remotion';
import ref from './remotion-reference.json';

const off = [];
for (const c of ref.spring) {
  const v = spring(c.args);
  if (!(Math.abs(v - c.value) <= 1e-9)) off.push(`spring(${JSON.stringify(c.args)}) = ${v}, remotion ${ref.remotion}: ${c.value}`);
}
for (const c of ref.random) {
  const v = random(c.seed);
  if (!(Math.abs(v - c.value) <= 1e-9)) off.push(`random(${JSON.stringify(c.seed)}) = ${v}, remotion ${ref.remotion}: ${c.value}`);
}
if (off.length) throw new Error(`${off.length} cases differ from Remotion: ${off.slice(0, 6).join('; ')}`);

export default function Scene() {
  const frame = useCurrentFrame();
  return <div style={{ width: 40 + frame, height: 40, background: '#4f8cff' }} />;
}
