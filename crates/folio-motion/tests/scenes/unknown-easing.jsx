// A scene that names an easing that does not exist: Easing.<name> throws, listing the real ones.
import { interpolate, useFrame, Easing } from 'folio/motion';

export default function Scene() {
  const frame = useFrame();
  const x = interpolate(frame, [0, 30], [0, 200], { easing: Easing.easeOutQuint });
  return <div style={{ transform: `translateX(${x}px)`, width: 40, height: 40, background: 'teal' }} />;
}
