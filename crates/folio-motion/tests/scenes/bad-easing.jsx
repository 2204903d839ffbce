// A scene that passes an easing by name: interpolate() throws, explaining to pass the curve.
import { interpolate, useFrame } from 'folio/motion';

export default function Scene() {
  const frame = useFrame();
  const x = interpolate(frame, [0, 30], [0, 200], { easing: 'easeInOut' });
  return <div style={{ transform: `translateX(${x}px)`, width: 40, height: 40, background: 'teal' }} />;
}
