// A Remotion-style scene, written as Remotion's documentation shows: useCurrentFrame,
// useVideoConfig, spring, interpolate with extrapolation, interpolateColors, Easing, Sequence,
// AbsoluteFill, Img.
import {
  AbsoluteFill, Easing, Img, Sequence, interpolate, interpolateColors, spring, useCurrentFrame, useVideoConfig,
} from 'remotion';

const Title = ({ text }) => {
  const frame = useCurrentFrame();
  const { fps } = useVideoConfig();
  const scale = spring({ frame, fps, config: { damping: 200 } });
  const opacity = interpolate(frame, [0, 10], [0, 1], { extrapolateRight: 'clamp' });
  return (
    <AbsoluteFill style={{ justifyContent: 'center', alignItems: 'center' }}>
      <div style={{ fontFamily: 'sans-serif', fontSize: 36, fontWeight: 700, color: 'white', opacity, transform: `scale(${scale})` }}>{text}</div>
    </AbsoluteFill>
  );
};

export default function MyVideo() {
  const frame = useCurrentFrame();
  const { durationInFrames, width } = useVideoConfig();
  const background = interpolateColors(frame, [0, durationInFrames], ['#1e3a8a', '#be185d']);
  const x = interpolate(frame, [0, durationInFrames], [0, width - 40], {
    easing: Easing.bezier(0.25, 0.1, 0.25, 1),
    extrapolateLeft: 'clamp',
    extrapolateRight: 'clamp',
  });
  return (
    <AbsoluteFill style={{ backgroundColor: background }}>
      <Sequence from={0} durationInFrames={15}>
        <Title text="Hello" />
      </Sequence>
      <Sequence from={15}>
        <Title text="World" />
      </Sequence>
      <Img src="/scenes/assets/dot.png" style={{ position: 'absolute', left: x, bottom: 20, width: 40, height: 40 }} />
    </AbsoluteFill>
  );
}
