// The prop audit: each case of remotion-props.json mounts one component with one prop; an `ok`
// prop must render without error and a `refused` one must fail with an error naming the prop.
// Any case that does otherwise fails the render, listing them.
import { Component, createElement as h } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { AbsoluteFill, Freeze, Img, Loop, Sequence, Series, useCurrentFrame } from 'remotion';
import table from './remotion-props.json';

const DOT = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
class Boundary extends Component {
  constructor(props) { super(props); this.state = { error: null }; }
  static getDerivedStateFromError(error) { return { error }; }
  componentDidCatch(error) { this.props.report(error); }
  render() { return this.state.error ? null : this.props.children; }
}
function element(component, prop, value) {
  const p = { [prop]: value };
  const child = h('div', null, 'x');
  switch (component) {
    case 'Sequence': return h(Sequence, p, child);
    case 'Series.Sequence': return h(Series, null, h(Series.Sequence, { durationInFrames: 10, ...p }, child));
    case 'Loop': return h(Loop, { durationInFrames: 10, ...p }, child);
    case 'Freeze': return h(Freeze, { frame: 3, ...p }, child);
    case 'AbsoluteFill': return h(AbsoluteFill, p, child);
    case 'Img': return h(Img, { src: DOT, ...p });
    default: throw new Error(`no such component ${component}`);
  }
}
const wrong = [];
for (const [component, prop, value, expect] of table.cases) {
  let error = null;
  const root = createRoot(document.createElement('div'), { onCaughtError() {}, onUncaughtError(e) { error = e; } });
  flushSync(() => root.render(h(Boundary, { report: (e) => { error = e; } }, element(component, prop, value))));
  flushSync(() => root.unmount());
  const named = error && String(error.message).includes(prop);
  if (expect === 'ok' && error) wrong.push(`<${component} ${prop}> should be honoured, but: ${error.message}`);
  if (expect === 'refused' && !named) wrong.push(`<${component} ${prop}> should be refused by name, but ${error ? `the error was: ${error.message}` : 'it rendered without a word'}`);
}
if (wrong.length) throw new Error(`${wrong.length} of ${table.cases.length} prop cases are wrong: ${wrong.join('; ')}`);

export default function Scene() {
  const frame = useCurrentFrame();
  return <div style={{ width: 40 + frame, height: 40, background: '#4f8cff' }} />;
}
