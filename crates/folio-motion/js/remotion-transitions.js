// @remotion/transitions for Folio, written from its public documentation (the package's licence
// does not let it ship; this is not its code). Answered under '@remotion/transitions' and its
// presentation subpaths ('/fade', '/slide', '/wipe', '/flip', '/clock-wipe', '/none').
//
// <TransitionSeries> plays its <TransitionSeries.Sequence>s one after the other; a
// <TransitionSeries.Transition presentation timing> between two of them overlaps them by the
// timing's duration, so the series is that much shorter. During the overlap the outgoing scene is
// drawn by the presentation as 'exiting' and the incoming one (on top) as 'entering', both with
// presentationProgress 0 → 1 from the timing: linearTiming (interpolate with an optional easing)
// or springTiming (Remotion's spring, its natural length unless durationInFrames is given).
// A presentation is {component, props}; the component gets {children, presentationDirection,
// presentationProgress, presentationDurationInFrames, passedProps}, so custom ones work too.
import { Children, createContext, createElement as h, isValidElement, useContext } from 'react';
import { ABSOLUTE_FILL, describe, measureSpring, physicsSpring, sequence, useFrame, useVideoConfig } from 'folio/motion';
import { checkProps } from './props.js';
import { interpolate } from './remotion-interpolate.js';

// ---- timings --------------------------------------------------------------------------------------
/** Progress linear in frames over durationInFrames, through an optional easing. */
export function linearTiming({ durationInFrames, easing } = {}) {
  if (typeof durationInFrames !== 'number' || !(durationInFrames > 0)) throw new TypeError(`linearTiming: durationInFrames must be a positive number, got ${describe(durationInFrames)}`);
  return {
    getDurationInFrames: () => durationInFrames,
    getProgress: ({ frame }) => interpolate(frame, [0, durationInFrames], [0, 1], { easing, extrapolateLeft: 'clamp', extrapolateRight: 'clamp' }),
  };
}
/** Progress of a Remotion spring; it lasts its natural length unless durationInFrames is given. */
export function springTiming({ config = {}, durationInFrames, durationRestThreshold, reverse = false } = {}) {
  return {
    getDurationInFrames: ({ fps }) => (durationInFrames !== undefined ? durationInFrames : measureSpring({ fps, config, threshold: durationRestThreshold })),
    getProgress: ({ fps, frame }) => physicsSpring({ fps, frame, config, durationInFrames, durationRestThreshold, reverse }),
  };
}

// ---- presentations ---------------------------------------------------------------------------------
const fill = (style, children) => h('div', { style: { ...ABSOLUTE_FILL, ...style } }, children);
const present = (component, props) => ({ component, props: props || {} });

function FadeView({ children, presentationDirection: dir, presentationProgress: p, passedProps }) {
  const out = dir === 'exiting';
  const opacity = out ? (passedProps.shouldFadeOutExitingScene ? 1 - p : 1) : p;
  return fill({ opacity, ...(out ? passedProps.exitStyle : passedProps.enterStyle) }, children);
}
/** The entering scene fades in over the exiting one (which fades out with shouldFadeOutExitingScene). */
export const fade = (props) => present(FadeView, props);

const DIRECTIONS = ['from-left', 'from-right', 'from-top', 'from-bottom'];
function checkDirection(who, direction, allowed) {
  if (!allowed.includes(direction)) throw new TypeError(`${who}({direction}) is one of ${allowed.map((d) => `'${d}'`).join(', ')}, got ${describe(direction)}`);
}
function SlideView({ children, presentationDirection: dir, presentationProgress: p, passedProps }) {
  const d = passedProps.direction || 'from-left';
  const [axis, sign] = { 'from-left': ['X', -1], 'from-right': ['X', 1], 'from-top': ['Y', -1], 'from-bottom': ['Y', 1] }[d];
  const shift = dir === 'entering' ? sign * (1 - p) * 100 : -sign * p * 100;
  return fill({ transform: `translate${axis}(${shift}%)`, ...(dir === 'exiting' ? passedProps.exitStyle : passedProps.enterStyle) }, children);
}
/** The entering scene pushes the exiting one out, from `direction` (default 'from-left'). */
export const slide = (props = {}) => { if (props.direction !== undefined) checkDirection('slide', props.direction, DIRECTIONS); return present(SlideView, props); };

const WIPES = ['from-left', 'from-top-left', 'from-top', 'from-top-right', 'from-right', 'from-bottom-right', 'from-bottom', 'from-bottom-left'];
// The revealed region of a wipe at progress p, as a clip-path polygon in percent.
function wipePolygon(direction, p) {
  const q = p * 100;
  const r = p * 200; // diagonals travel twice as far to cover the corner-to-corner distance
  switch (direction) {
    case 'from-left': return `polygon(0% 0%, ${q}% 0%, ${q}% 100%, 0% 100%)`;
    case 'from-right': return `polygon(${100 - q}% 0%, 100% 0%, 100% 100%, ${100 - q}% 100%)`;
    case 'from-top': return `polygon(0% 0%, 100% 0%, 100% ${q}%, 0% ${q}%)`;
    case 'from-bottom': return `polygon(0% ${100 - q}%, 100% ${100 - q}%, 100% 100%, 0% 100%)`;
    case 'from-top-left': return `polygon(0% 0%, ${r}% 0%, 0% ${r}%)`;
    case 'from-top-right': return `polygon(100% 0%, ${100 - r}% 0%, 100% ${r}%)`;
    case 'from-bottom-left': return `polygon(0% 100%, ${r}% 100%, 0% ${100 - r}%)`;
    default: return `polygon(100% 100%, ${100 - r}% 100%, 100% ${100 - r}%)`;
  }
}
function WipeView({ children, presentationDirection: dir, presentationProgress: p, passedProps }) {
  if (dir === 'exiting') return fill(passedProps.outerExitStyle, children);
  return fill({ clipPath: wipePolygon(passedProps.direction || 'from-left', p), ...passedProps.outerEnterStyle }, children);
}
/** The entering scene is revealed by an edge sweeping in from `direction` (default 'from-left'). */
export const wipe = (props = {}) => { if (props.direction !== undefined) checkDirection('wipe', props.direction, WIPES); return present(WipeView, props); };

function FlipView({ children, presentationDirection: dir, presentationProgress: p, passedProps }) {
  const d = passedProps.direction || 'from-left';
  const axis = d === 'from-left' || d === 'from-right' ? 'Y' : 'X';
  const sign = d === 'from-left' || d === 'from-bottom' ? 1 : -1;
  const angle = dir === 'exiting' ? sign * p * 180 : sign * (p - 1) * 180;
  return h('div', { style: { ...ABSOLUTE_FILL, perspective: passedProps.perspective || 1000 } },
    fill({ transform: `rotate${axis}(${angle}deg)`, backfaceVisibility: 'hidden', ...(dir === 'exiting' ? passedProps.outerExitStyle : passedProps.outerEnterStyle) }, children));
}
/** The scenes turn like a card around the vertical (from-left/right) or horizontal axis. */
export const flip = (props = {}) => { if (props.direction !== undefined) checkDirection('flip', props.direction, DIRECTIONS); return present(FlipView, props); };

function ClockWipeView({ children, presentationDirection: dir, presentationProgress: p, passedProps }) {
  if (dir === 'exiting') return fill(passedProps.outerExitStyle, children);
  const mask = `conic-gradient(#000 ${p * 360}deg, transparent ${p * 360}deg)`;
  return fill({ WebkitMaskImage: mask, maskImage: mask, ...passedProps.outerEnterStyle }, children);
}
/** The entering scene is revealed by a clock hand sweeping from 12 o'clock. */
export const clockWipe = (props = {}) => present(ClockWipeView, props);

/** No visible transition: both scenes are shown as they are during the overlap. */
export const none = (props) => present(({ children }) => fill({}, children), props);

// ---- the series --------------------------------------------------------------------------------------
const ProgressContext = createContext(null);
/** Inside a TransitionSeries.Sequence: {entering, exiting, isInTransitionSeries}. */
export function useTransitionProgress() {
  const ctx = useContext(ProgressContext);
  return ctx || { entering: 1, exiting: 0, isInTransitionSeries: false };
}

function TSequence({ children }) { return children; }
function TTransition() { return null; }

function wrap(transition, direction, progress, duration, child) {
  const { component, props } = transition.presentation;
  return h(component, { presentationDirection: direction, presentationProgress: progress, presentationDurationInFrames: duration, passedProps: props }, child);
}

export function TransitionSeries({ children }) {
  const frame = useFrame();
  const { fps } = useVideoConfig();
  const items = Children.toArray(children).filter((c) => c !== null && c !== false);
  const kinds = items.map((c, i) => {
    if (isValidElement(c) && c.type === TSequence) return 'sequence';
    if (isValidElement(c) && c.type === TTransition) return 'transition';
    throw new TypeError(`<TransitionSeries> may only contain <TransitionSeries.Sequence> and <TransitionSeries.Transition>; child ${i + 1} is ${isValidElement(c) ? `<${c.type.displayName || c.type.name || c.type}>` : describe(c)}`);
  });
  kinds.forEach((k, i) => {
    if (k === 'transition' && (kinds[i - 1] !== 'sequence' || kinds[i + 1] !== 'sequence')) {
      throw new TypeError(`<TransitionSeries.Transition> (child ${i + 1}) must sit between two <TransitionSeries.Sequence>s`);
    }
  });
  // Lay the sequences out: each starts where the previous ended, less the transition between.
  const seqs = [];
  let start = 0;
  let pending = null;
  items.forEach((c, i) => {
    if (kinds[i] === 'transition') {
      const { presentation = fade(), timing = linearTiming({ durationInFrames: 30 }) } = c.props;
      if (!presentation || typeof presentation.component !== 'function') throw new TypeError('<TransitionSeries.Transition presentation> must be a presentation such as fade(), slide(), wipe()');
      if (!timing || typeof timing.getProgress !== 'function') throw new TypeError('<TransitionSeries.Transition timing> must be a timing such as linearTiming({durationInFrames: 30}) or springTiming()');
      const d = timing.getDurationInFrames({ fps });
      const prev = seqs[seqs.length - 1];
      if (d > prev.duration) throw new Error(`<TransitionSeries.Transition> (child ${i + 1}) lasts ${d} frames, longer than the sequence before it (${prev.duration})`);
      pending = { presentation, timing, duration: d };
      prev.out = pending;
      start -= d;
      return;
    }
    const { durationInFrames, offset = 0, children: inner, ...rest } = checkProps('TransitionSeries.Sequence', c.props);
    if (typeof durationInFrames !== 'number' || !(durationInFrames > 0)) throw new TypeError(`<TransitionSeries.Sequence durationInFrames> must be a positive number of frames, got ${describe(durationInFrames)}`);
    if (pending && pending.duration > durationInFrames) throw new Error(`<TransitionSeries.Transition> lasts ${pending.duration} frames, longer than the sequence after it (${durationInFrames})`);
    const from = start + offset;
    seqs.push({ key: c.key ?? i, from, duration: durationInFrames, inner, rest, in: pending, out: null });
    pending = null;
    start = from + durationInFrames;
  });
  return seqs.map((s) => {
    let child = s.inner;
    let entering = 1;
    let exiting = 0;
    const local = frame - s.from;
    // The presentations stay in the tree outside their transitions (at rest: entering at 1,
    // exiting at 0), so a scene is never unmounted and remounted when a transition ends — its
    // state (a Reanimated animation, say) carries on.
    if (s.out) {
      const at = local - (s.duration - s.out.duration);
      exiting = at >= 0 ? s.out.timing.getProgress({ fps, frame: at }) : 0;
      child = wrap(s.out, 'exiting', exiting, s.out.duration, child);
    }
    if (s.in) {
      entering = local < s.in.duration ? s.in.timing.getProgress({ fps, frame: local }) : 1;
      child = wrap(s.in, 'entering', entering, s.in.duration, child);
    }
    const ctx = h(ProgressContext.Provider, { value: { entering, exiting, isInTransitionSeries: true } }, child);
    return h(TSeriesItem, { key: s.key, from: s.from, durationInFrames: s.duration, ...s.rest }, ctx);
  });
}
function TSeriesItem(props) {
  return sequence('TransitionSeries.Sequence', props, true);
}
TransitionSeries.Sequence = TSequence;
TransitionSeries.Transition = TTransition;
