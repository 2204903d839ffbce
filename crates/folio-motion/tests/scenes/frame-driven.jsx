// A frame-driven scene: everything is a function of useFrame().
import { useFrame, useVideoConfig, interpolate, spring, useTime, Easing, Sequence } from 'folio/motion';

export default function Scene() {
  const frame = useFrame();
  const { width, height, durationInFrames } = useVideoConfig();
  const x = interpolate(frame, [0, durationInFrames - 1], [0, width - 60], { easing: Easing.inOut });
  const s = spring(useTime());
  return (
    <div style={{ width, height, background: '#0b1020', position: 'relative', fontFamily: 'sans-serif' }}>
      <div style={{ position: 'absolute', left: x, top: height / 2 - 30, width: 60, height: 60, borderRadius: 12,
        background: '#4f8cff', transform: `scale(${0.5 + 0.5 * s})` }} />
      <Sequence from={5} durationInFrames={10}>
        <Label />
      </Sequence>
      <div style={{ position: 'absolute', right: 8, bottom: 6, color: '#fff', fontSize: 14 }}>frame {frame}</div>
    </div>
  );
}

function Label() {
  const frame = useFrame(); // relative to the Sequence: 0 at absolute frame 5
  return <div style={{ position: 'absolute', left: 8, top: 6, color: '#ffd166', fontSize: 14 }}>in sequence {frame}</div>;
}
