//! The agent-facing documentation of env:motion (`/std/motion/README.md`, before the host's
//! "On this host" section) and the skill that teaches the still-first loop.

/// `/std/motion/README.md` without the host section.
pub const README: &str = r#"# env:motion

A scene is a file in the tree that **default-exports a React component**. `render(scene, out, args)` turns it into video
frame by frame in a headless browser whose clock is replaced: frame N is exactly t = N/fps, and two renders are
byte-identical. `still(scene, out, {frame})` renders one frame to a PNG — check a still with `view_image` before a full render.

```js
import { render, still } from 'env:motion';
export default async function () {
  await still('/scenes/intro.jsx', '/tmp/intro-30.png', { frame: 30, width: 960, height: 540 });
  const r = await render('/scenes/intro.jsx', '/out/intro.mp4', { durationSeconds: 3, width: 960, height: 540 });
  if (r.warnings.length) throw new Error(r.warnings.join('\n'));
  return r;
}
```

## Writing a scene — three ways, no switch between them

**folio/motion** (frame-driven):
```jsx
import { useFrame, useVideoConfig, interpolate, spring, Easing, Sequence } from 'folio/motion';
export default function Scene() {
  const frame = useFrame();
  const { width, durationInFrames } = useVideoConfig();
  const x = interpolate(frame, [0, durationInFrames - 1], [0, width - 100], { easing: Easing.inOut });
  return <div style={{ position: 'absolute', left: x, top: 200, width: 100, height: 100, background: '#36c' }} />;
}
```
`useTime()` is frame/fps; `interpolate` clamps; pass the easing curve itself (`Easing.out`, `Easing.bezier(.2,.8,.2,1)`).

**Remotion-style**, imported as `remotion`: `useCurrentFrame`, `useVideoConfig`, `interpolate` (with `extrapolateLeft`/`extrapolateRight`),
`spring({frame, fps, config})`, `interpolateColors`, `Easing`, `Sequence` (frames inside are relative), `AbsoluteFill`, `Img`.

**React Native + Reanimated**, unchanged: `import { View } from 'react-native'` (react-native-web) and
`react-native-reanimated` (`useSharedValue`, `useAnimatedStyle`, `withTiming`, `withSpring`, `withRepeat`, `interpolateColor`).
Start the animation in `useEffect`; a 2 s `withTiming` is exactly 2 s of video.

Also deterministic: CSS `@keyframes`, transitions, the Web Animations API, `requestAnimationFrame`, timers, `Date`,
`performance.now()` and `Math.random()` (seeded) all follow the replaced clock.

## Files, images, fonts

- Import siblings with `./` (`import { theme } from './theme.js'`; `.jsx`, `.ts`, `.tsx`, `.json` and `.css` work).
- Use any tree file by its absolute path: `<img src="/in/logo.png">`, `url(/in/bg.jpg)`, `@font-face { src: url(/fonts/Inter.woff2) }`.
- Only these packages exist: `react`, `react-dom`, `react-native`, `react-native-reanimated`, `remotion`, `folio/motion`,
  `@remotion/transitions` (TransitionSeries; fade, slide, wipe, flip, clock-wipe, none), `@remotion/shapes`,
  `@remotion/paths`, `@remotion/noise`, `zod` and `react-native-svg` (its elements: Svg, Path, Circle, G, …).
  There is no network: any other URL is refused and reported.
- Fonts: only `system-ui`, `sans-serif`, `serif` and `monospace` are safe unless you load a font file from the tree.

## Results and warnings

`{path, width, height, frames, fps, durationSeconds, bytes, warnings}`. **A non-empty `warnings` is a failure**: a missing image,
a font the host lacks, an error the page raised, or `every frame is identical` (the scene is not animating).
A scene that throws fails at once with its own error and file:line.

## Costs

Each call is estimated from this host's measured frame rate and refused up front when it would outlive the run
(the message names the option to raise). Render short first: a still, then 1 s, then the whole clip. At most 1800 frames per call.
"#;

/// The skill `motion-scenes`: (name, summary, body).
pub const SKILL: (&str, &str, &str) = (
    "motion-scenes",
    "Writing a scene that renders to video or an image (env:motion), and checking it.",
    r#"# Motion scenes: still first, then render

The scene API (what a scene imports: `folio/motion`, React, react-native + Reanimated) is in `/std/motion/README.md`; the render options are in `/std/motion/index.d.ts`.

1. Write one file that default-exports a component (`/scenes/intro.jsx`). Size it with `useVideoConfig()`.
2. `still(scene, '/tmp/intro-f30.png', {frame: 30, width, height})`, then `view_image` it. Check a frame in the middle and near the end, not only frame 0.
3. Only then `render(scene, '/out/intro.mp4', {durationSeconds, width, height})`.
4. **Treat a non-empty `warnings` as a failure**: fix the path, the font or the error it names and render again.

Costly mistakes:
- Rendering 10 s before checking one still. A still costs a fraction of a second.
- Asking for more frames than the run has time for: the call is refused up front with the option to change. Render shorter, or smaller.
- `Easing.out(Easing.cubic)` style calls where a curve is expected: pass `Easing.out` (folio/motion) — an unknown name lists the real ones.
- Animations in `setTimeout` loops without a delay, or reading a real clock: everything runs on the replaced clock, so use `useFrame()`/`useCurrentFrame()` or Reanimated.
- Fonts the host lacks: use `system-ui`, `sans-serif`, `serif`, `monospace`, or ship a font file in the tree.
- `.webm` for a browser without H.264, `.mp4` for people; `.gif` for short loops only (it is large).
"#,
);
