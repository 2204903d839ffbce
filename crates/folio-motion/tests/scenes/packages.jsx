// The packages real scenes import, together: a TransitionSeries of three scenes joined by two
// transitions (fade, then wipe) — a @remotion/shapes star, a @remotion/noise field, and an SVG
// path animated by Reanimated (react-native-svg's Path through createAnimatedComponent and
// useAnimatedProps, withTiming on the virtual clock) — with the props checked by a zod schema.
// 3 × 20 frames less 2 × 8 of overlap = 44 frames.
import { useEffect } from 'react';
import { z } from 'zod';
import { AbsoluteFill, useCurrentFrame, useVideoConfig } from 'remotion';
import { TransitionSeries, linearTiming, springTiming } from '@remotion/transitions';
import { fade } from '@remotion/transitions/fade';
import { wipe } from '@remotion/transitions/wipe';
import { Star } from '@remotion/shapes';
import { noise2D } from '@remotion/noise';
import Animated, { Easing, useAnimatedProps, useSharedValue, withTiming } from 'react-native-reanimated';
import Svg, { Path } from 'react-native-svg';

export const schema = z.object({
  starColor: z.string().regex(/^#[0-9a-f]{6}$/i),
  points: z.number().int().min(3),
  seed: z.string(),
});
const props = schema.parse({ starColor: '#ffd400', points: 5, seed: 'folio' });
const bad = schema.safeParse({ starColor: 'yellow', points: 2.5, seed: 1 });
if (bad.success || bad.error.issues.length !== 3) throw new Error(`zod: the bad props should fail on 3 fields, got ${JSON.stringify(bad)}`);

function StarScene({ starColor, points }) {
  const frame = useCurrentFrame();
  return (
    <AbsoluteFill style={{ background: '#c0392b', alignItems: 'center', justifyContent: 'center' }}>
      <Star points={points} innerRadius={30} outerRadius={70} fill={starColor} style={{ transform: `rotate(${frame * 3}deg)` }} />
    </AbsoluteFill>
  );
}

function NoiseScene({ seed }) {
  const frame = useCurrentFrame();
  const { width, height } = useVideoConfig();
  const dots = [];
  for (let x = 0; x < 16; x++) {
    for (let y = 0; y < 9; y++) {
      const n = noise2D(seed, x / 6 + frame / 20, y / 6);
      dots.push(<div key={`${x}-${y}`} style={{ position: 'absolute', left: (x + 0.5) * width / 16 - 6, top: (y + 0.5) * height / 9 - 6 + n * 6, width: 12, height: 12, borderRadius: 6, background: `hsl(${200 + n * 60}, 80%, 60%)` }} />);
    }
  }
  return <AbsoluteFill style={{ background: '#10263a' }}>{dots}</AbsoluteFill>;
}

const AnimatedPath = Animated.createAnimatedComponent(Path);
function PathScene() {
  const t = useSharedValue(0);
  useEffect(() => {
    t.value = withTiming(1, { duration: 600, easing: Easing.inOut(Easing.quad) });
  }, []);
  const animatedProps = useAnimatedProps(() => {
    const y = 150 - 120 * t.value;
    return { d: `M 20 150 Q 160 ${y} 300 150` };
  });
  return (
    <AbsoluteFill style={{ background: '#f4f1ea' }}>
      <Svg width={320} height={180} viewBox="0 0 320 180">
        <AnimatedPath animatedProps={animatedProps} stroke="#2255dd" strokeWidth={10} fill="none" />
      </Svg>
    </AbsoluteFill>
  );
}

export default function Scene() {
  return (
    <TransitionSeries>
      <TransitionSeries.Sequence durationInFrames={20}><StarScene {...props} /></TransitionSeries.Sequence>
      <TransitionSeries.Transition presentation={fade()} timing={linearTiming({ durationInFrames: 8 })} />
      <TransitionSeries.Sequence durationInFrames={20}><NoiseScene {...props} /></TransitionSeries.Sequence>
      <TransitionSeries.Transition presentation={wipe({ direction: 'from-left' })} timing={springTiming({ durationInFrames: 8, config: { damping: 200 } })} />
      <TransitionSeries.Sequence durationInFrames={20}><PathScene /></TransitionSeries.Sequence>
    </TransitionSeries>
  );
}
