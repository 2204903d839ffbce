// <Sequence freeze={20}> shows its frame 20 whatever the render's frame; a Sequence with
// width/height lays its children out at that size, and useVideoConfig() inside it reports that
// size and the sequence's own duration (the 30-frame render less its `from`). Either failing throws, failing the render.
import { useLayoutEffect, useRef } from 'react';
import { Loop, Sequence, useCurrentFrame, useDelayRender, useVideoConfig } from 'remotion';

function Frozen() {
  const frame = useCurrentFrame();
  if (frame !== 20) throw new Error(`the frozen Sequence shows frame ${frame}, not 20`);
  return <div style={{ width: 10, height: 10, background: 'red' }} />;
}

function Sized() {
  const ref = useRef(null);
  const { width, height, durationInFrames, fps } = useVideoConfig();
  if (width !== 300 || height !== 200 || durationInFrames !== 25 || fps !== 30) {
    throw new Error(`useVideoConfig() inside the 300×200 Sequence from 5 gives ${width}×${height}, ${durationInFrames} frames at ${fps} fps, not 300×200, 25 frames at 30 fps`);
  }
  useLayoutEffect(() => {
    const r = ref.current.parentElement.getBoundingClientRect();
    if (r.width !== 300 || r.height !== 200) throw new Error(`the 300×200 Sequence is laid out at ${r.width}×${r.height}`);
  });
  return <div ref={ref} style={{ flex: 1, background: 'blue' }} />;
}

// Loop.useLoop() names the pass: at frame f, a 2-frame loop is in pass floor(f / 2).
function LoopProbe({ at }) {
  const loop = Loop.useLoop();
  const want = { iteration: Math.floor(at / 2), durationInFrames: 2 };
  if (!loop || loop.iteration !== want.iteration || loop.durationInFrames !== 2) throw new Error(`Loop.useLoop() at frame ${at} gives ${JSON.stringify(loop)}, not ${JSON.stringify(want)}`);
  return null;
}

// useDelayRender() hands out the render-control functions.
function Delayed() {
  const { delayRender, continueRender } = useDelayRender();
  useLayoutEffect(() => { continueRender(delayRender('probe')); }, []);
  return null;
}

export default function Scene() {
  const frame = useCurrentFrame();
  return (
    <div style={{ flex: 1, background: '#222', opacity: 0.5 + frame / 100 }}>
      <Sequence from={2} freeze={20}><Frozen /></Sequence>
      <Sequence from={5} width={300} height={200}><Sized /></Sequence>
      <Loop durationInFrames={2} layout="none"><LoopProbe at={frame} /></Loop>
      <Delayed />
    </div>
  );
}
