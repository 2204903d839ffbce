// A CSS scene: an @keyframes animation, a transition started after mount and a Web Animations
// API animation. None of them reads the frame; the clock pins and seeks them every frame, so the
// render is deterministic (a still walks it, since it has no frame listeners).
import { useEffect, useRef, useState } from 'react';

const css = `
@keyframes slide { from { transform: translateX(0px); } to { transform: translateX(200px); } }
.slider { animation: slide 1s linear infinite alternate; }
.fader { opacity: 0.1; transition: opacity 1s linear; }
.fader.on { opacity: 1; }
`;

export default function Scene() {
  const [on, setOn] = useState(false);
  const spinner = useRef(null);
  useEffect(() => {
    setOn(true);
    spinner.current.animate([{ transform: 'rotate(0deg)' }, { transform: 'rotate(360deg)' }], { duration: 1500, iterations: Infinity });
  }, []);
  return (
    <div style={{ width: '100%', height: '100%', background: '#f8fafc', position: 'relative' }}>
      <style>{css}</style>
      <div className="slider" data-testid="slider" style={{ position: 'absolute', top: 20, left: 10, width: 40, height: 40, background: '#0ea5e9' }} />
      <div className={on ? 'fader on' : 'fader'} style={{ position: 'absolute', top: 80, left: 10, width: 40, height: 40, background: '#16a34a' }} />
      <div ref={spinner} style={{ position: 'absolute', top: 80, left: 120, width: 40, height: 40, background: '#dc2626' }} />
    </div>
  );
}
