// Every prop Remotion's current documentation lists for Sequence, Series.Sequence, Loop, Freeze,
// AbsoluteFill and Img, and what Folio does with it — one table, read by the components at render.
//
//   honoured  — does what Remotion's docs say;
//   render    — a Studio/Player prop that Remotion itself ignores while rendering (premounting is
//               off in a render, the timeline is not drawn): accepted, and it does nothing here
//               either, exactly as in a Remotion render;
//   refused   — not provided: a scene that passes it (with a value other than its default) fails
//               with an error naming the prop and what to do instead.
// A prop in no row is refused too, naming the props the component takes, so a misspelt or
// unknown prop never disappears silently. AbsoluteFill and Img also pass every other prop on to
// their <div>/<img> (HTML attributes and event handlers), as Remotion's do, so they have no
// unknown-prop check.
import { describe } from './motion.js';

const H = 'honoured';
const R = 'render';
const refused = (why, unless) => ({ how: 'refused', why, unless });
const TRIM = refused('trims the start of the sequence’s content — shift `from` to a negative number instead (<Sequence from={-trim}>)', 0);
const RATE = refused('plays the content at another speed — scale the frame yourself: const f = useCurrentFrame() * rate', 1);
const CROP = refused('crops the box — put a style clipPath: `inset(top right bottom left)` on it instead', undefined);
const SEQUENCE_LAYOUT = {
  layout: H, style: H, className: H, name: H, showInTimeline: R, hidden: H,
  premountFor: R, postmountFor: R, styleWhilePremounted: R, styleWhilePostmounted: R,
};

export const PROPS = {
  Sequence: {
    children: H, from: H, durationInFrames: H, freeze: H, width: H, height: H, ...SEQUENCE_LAYOUT,
    controls: R,
    trimBefore: TRIM,
    playbackRate: RATE,
    loop: refused('repeats the content — wrap it in <Loop durationInFrames={…}> instead', false),
    cropLeft: CROP, cropRight: CROP, cropTop: CROP, cropBottom: CROP,
  },
  'Series.Sequence': {
    children: H, durationInFrames: H, offset: H, freeze: H, ...SEQUENCE_LAYOUT,
    trimBefore: TRIM,
    playbackRate: RATE,
  },
  'TransitionSeries.Sequence': {
    children: H, durationInFrames: H, offset: H, freeze: H, ...SEQUENCE_LAYOUT,
    trimBefore: TRIM,
    playbackRate: RATE,
  },
  Loop: {
    children: H, durationInFrames: H, times: H, name: H, layout: H, style: H, className: H, showInTimeline: R,
    premountFor: R, postmountFor: R, styleWhilePremounted: R, styleWhilePostmounted: R,
    playbackRate: RATE,
  },
  Freeze: { children: H, frame: H, active: H },
  AbsoluteFill: { children: H, style: H, className: H },
  Img: {
    src: H, onError: H, onImageError: H, onImageFrame: H, showInTimeline: R, name: H,
    // The render waits for every image and a failed load is an error at once, so retries and
    // timeouts have nothing to do.
    maxRetries: R, pauseWhenLoading: R, delayRenderRetries: R, delayRenderTimeoutInMilliseconds: R,
    premountFor: R, postmountFor: R, styleWhilePremounted: R, styleWhilePostmounted: R,
    effects: refused('applies Remotion’s canvas effects — use CSS filter in style instead', undefined),
    effectsOutputSize: refused('sizes Remotion’s canvas effects — use CSS filter in style instead', undefined),
    cropLeft: CROP, cropRight: CROP, cropTop: CROP, cropBottom: CROP,
  },
};
// Components that pass unlisted props on to their element.
const PASS_THROUGH = new Set(['AbsoluteFill', 'Img']);
const IGNORED = new Set(['key', 'ref']);

/** Throws for a refused prop (set to other than its default) or, on components that do not pass
 *  props through, an unknown one; returns the props with the render-only ones removed. */
export function checkProps(component, props) {
  const table = PROPS[component];
  const out = {};
  for (const [name, value] of Object.entries(props)) {
    const row = table[name];
    if (row === undefined) {
      if (PASS_THROUGH.has(component) || IGNORED.has(name)) { out[name] = value; continue; }
      const known = Object.keys(table).filter((k) => table[k] !== R && typeof table[k] === 'string');
      throw new TypeError(`<${component} ${name}> is not a prop of ${component} — it takes ${known.join(', ')}`);
    }
    if (row === R) continue;
    if (row === H) { out[name] = value; continue; }
    if (value === undefined || value === row.unless) continue;
    throw new TypeError(`<${component} ${name}={${describe(value)}}> is not supported in Folio: it ${row.why}`);
  }
  return out;
}
