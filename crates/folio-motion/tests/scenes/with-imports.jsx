// A scene with sibling imports (a JS module without its extension, a JSON file) and images by
// tree path: one imported from JS (the module's default export is its tree path) and one written
// as an absolute tree path in src. Assumes the tree root is crates/folio-motion/tests.
import { useFrame, interpolate } from 'folio/motion';
import { theme } from './theme';
import labels from './labels.json';
import dot from './assets/dot.png';

export default function Scene() {
  const frame = useFrame();
  const x = interpolate(frame, [0, 20], [10, 200]);
  return (
    <div style={{ width: '100%', height: '100%', background: theme.background, position: 'relative', fontFamily: 'sans-serif' }}>
      <div style={{ position: 'absolute', left: 10, top: 8, color: theme.accent, fontSize: 16 }}>{labels.title}</div>
      <img src={dot} style={{ position: 'absolute', left: x, top: 50, width: theme.size, height: theme.size }} />
      <img src="/scenes/assets/dot.png" style={{ position: 'absolute', left: 10, top: 110, width: 24, height: 24 }} />
    </div>
  );
}
