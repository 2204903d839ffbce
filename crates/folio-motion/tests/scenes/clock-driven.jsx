// A clock-driven scene: requestAnimationFrame + performance.now, setInterval, new Date() and
// Math.random — none of folio/motion. Under the virtual clock it moves 100 px per second of video
// (3.33 px a frame at 30 fps), the tick counter goes up every 100 ms, the clock text starts at
// 2025-01-01T00:00:00.000Z, and the stars are the same in every render (seeded Math.random).
import { useEffect, useState } from 'react';

const STARS = Array.from({ length: 12 }, () => [Math.random(), Math.random()]);

export default function Scene() {
  const [elapsed, setElapsed] = useState(0);
  const [ticks, setTicks] = useState(0);
  useEffect(() => {
    const start = performance.now();
    let id = requestAnimationFrame(function loop(now) {
      setElapsed(now - start);
      id = requestAnimationFrame(loop);
    });
    const iv = setInterval(() => setTicks((n) => n + 1), 100);
    return () => { cancelAnimationFrame(id); clearInterval(iv); };
  }, []);
  const x = (elapsed / 1000) * 100;
  return (
    <div style={{ width: '100%', height: '100%', background: '#111827', position: 'relative', color: '#e5e7eb', fontFamily: 'monospace', fontSize: 12 }}>
      {STARS.map(([sx, sy], i) => (
        <div key={i} style={{ position: 'absolute', left: `${sx * 100}%`, top: `${sy * 100}%`, width: 3, height: 3, background: '#fde68a' }} />
      ))}
      <div data-testid="box" style={{ position: 'absolute', left: x, top: 70, width: 40, height: 40, background: '#f97316' }} />
      <div style={{ position: 'absolute', left: 6, top: 4 }}>{new Date().toISOString()}</div>
      <div style={{ position: 'absolute', left: 6, bottom: 4 }}>ticks {ticks} · {Date.now() - Date.UTC(2025, 0, 1)} ms</div>
    </div>
  );
}
