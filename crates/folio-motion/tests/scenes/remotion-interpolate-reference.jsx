// Checks interpolate() and Easing from 'remotion' against values computed once from the remotion
// npm package (its version is in the JSON): every curve at t inside and outside [0, 1], every
// extrapolation pair, easing arrays, tail-allowing springs, posterize, perceptual-scale, tuples
// and booleans. Any case off by more than 1e-9 fails the render, naming the first few.
import { Easing, interpolate, useCurrentFrame } from 'remotion';
import ref from './remotion-reference-interpolate.json';

const curve = (src) => new Function('Easing', `return ${src}`)(Easing);
const easingOf = (e) => (e === undefined ? undefined : Array.isArray(e) ? e.map(curve) : curve(e));
const num = (v) => (typeof v === 'string' ? Number(v) : v);
function same(got, want) {
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => same(got[i], w));
  if (typeof want === 'boolean') return got === want;
  const w = num(want);
  return Number.isNaN(w) ? Number.isNaN(got) : got === w || Math.abs(got - w) <= 1e-9;
}
const off = [];
for (const c of ref.easing) {
  let v;
  try { v = curve(c.curve)(c.t); } catch (e) { v = `error: ${e.message}`; }
  if (!same(v, c.value)) off.push(`${c.curve}(${c.t}) = ${v}, remotion ${ref.remotion}: ${c.value}`);
}
for (const c of ref.interpolate) {
  let v;
  try { v = interpolate(c.input, c.inputRange, c.outputRange, { ...c.options, easing: easingOf(c.options.easing) }); } catch (e) { v = `error: ${e.message}`; }
  if (!same(v, c.value)) off.push(`interpolate(${c.input}, ${JSON.stringify(c.inputRange)}, ${JSON.stringify(c.outputRange)}, ${JSON.stringify(c.options)}) = ${v}, remotion ${ref.remotion}: ${c.value}`);
}
if (off.length) throw new Error(`${off.length} of ${ref.easing.length + ref.interpolate.length} cases differ from Remotion: ${off.slice(0, 6).join('; ')}`);

export default function Scene() {
  const frame = useCurrentFrame();
  return <div style={{ width: 40 + frame, height: 40, background: '#4f8cff' }} />;
}
