// <Sequence freeze={20}> shows its frame 20 whatever the render's frame; a Sequence with
// width/height lays its children out at that size. Either failing throws, failing the render.
import { useLayoutEffect, useRef } from 'react';
import { Sequence, useCurrentFrame } from 'remotion';

function Frozen() {
  const frame = useCurrentFrame();
  if (frame !== 20) throw new Error(`the frozen Sequence shows frame ${frame}, not 20`);
  return <div style={{ width: 10, height: 10, background: 'red' }} />;
}

function Sized() {
  const ref = useRef(null);
  useLayoutEffect(() => {
    const r = ref.current.parentElement.getBoundingClientRect();
    if (r.width !== 300 || r.height !== 200) throw new Error(`the 300×200 Sequence is laid out at ${r.width}×${r.height}`);
  });
  return <div ref={ref} style={{ flex: 1, background: 'blue' }} />;
}

export default function Scene() {
  const frame = useCurrentFrame();
  return (
    <div style={{ flex: 1, background: '#222', opacity: 0.5 + frame / 100 }}>
      <Sequence from={2} freeze={20}><Frozen /></Sequence>
      <Sequence width={300} height={200}><Sized /></Sequence>
    </div>
  );
}
