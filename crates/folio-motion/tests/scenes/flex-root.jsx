// Remotion's ColorInterpolation example: the component's root is a `flex: 1` div, which fills
// the frame only because Remotion mounts a composition in an absolute, full-size flex column.
import { interpolateColors, useCurrentFrame } from 'remotion';

export default function ColorInterpolation() {
  const frame = useCurrentFrame();
  const color = interpolateColors(frame, [0, 20], ['red', 'yellow']);
  return <div style={{ flex: 1, backgroundColor: color }} />;
}
