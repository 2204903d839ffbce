// A scene that renders but deserves warnings: a font family the host lacks and an image that
// does not exist (the host also reports /scenes/assets/missing.png as a missing asset).
import { useFrame } from 'folio/motion';

export default function Scene() {
  const frame = useFrame();
  return (
    <div style={{ width: '100%', height: '100%', background: 'white' }}>
      <div style={{ fontFamily: '"Folio Imaginary Sans", sans-serif', fontSize: 24 }}>frame {frame}</div>
      <img src="/scenes/assets/missing.png" style={{ width: 40, height: 40 }} />
    </div>
  );
}
