// folio-motion entry (template): the SCENE placeholder below is the scene URL, e.g. http://folio.scene/in/scene.jsx
// (percent-encoded, so it holds no quote). It imports the scene, checks that the default export is
// a component, and mounts it synchronously; Root's effect sets __folio.mounted.
import { createElement, useEffect } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

const F = window.__folio;
const SCENE = "{{SCENE}}";
F.scene = F.treePath(SCENE);
F.flush = flushSync;

function kindOf(v) {
  if (v === undefined) return 'undefined (there is no default export)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object' && v.$$typeof) return 'a React element (<Scene />) rather than the component (Scene)';
  return `a ${typeof v}`;
}
function isComponent(v) {
  return typeof v === 'function' || (v !== null && typeof v === 'object' && typeof v.$$typeof === 'symbol' &&
    (v.$$typeof === Symbol.for('react.memo') || v.$$typeof === Symbol.for('react.forward_ref') || v.$$typeof === Symbol.for('react.lazy')));
}

let mod = null;
try {
  mod = await import(SCENE);
} catch (err) {
  F.recordError(err, 'import', { location: F.scene });
}
if (mod) {
  const Scene = mod.default;
  if (!isComponent(Scene)) {
    const named = Object.keys(mod).filter((k) => k !== 'default' && typeof mod[k] === 'function');
    const hint = named.length ? ` It exports ${named.map((n) => `'${n}'`).join(', ')} by name — write \`export default ${named[0]}\`.` : '';
    F.recordError(new Error(`the scene ${F.scene} must default-export a React component (export default function Scene() {…}); its default export is ${kindOf(Scene)}.${hint}`), 'scene', { location: F.scene });
  } else {
    function Root() {
      useEffect(() => { F.mounted = true; }, []);
      return createElement(Scene);
    }
    const root = createRoot(document.getElementById('root'), {
      onUncaughtError(error, info) { F.recordError(error, 'render', { componentStack: info && info.componentStack }); },
    });
    try {
      flushSync(() => root.render(createElement(Root)));
    } catch (err) {
      F.recordError(err, 'render');
    }
    // What the mount's effects scheduled renders now, and the animations it started are paused
    // in this task, before the compositor runs them.
    await F.settleWork();
  }
}
