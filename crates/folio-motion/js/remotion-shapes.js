// @remotion/shapes under its npm name: the make* path builders are the published package's own
// (MIT, vendored by scripts/vendor-js.sh as vendor/@remotion/shapes/make.js); the components
// (<Star>, <Circle>, …) are drawn here as its documentation describes them — the package's own
// components depend on Remotion's private internals. A component takes its builder's options,
// `style` for the <svg>, `pathStyle` for the <path>, and passes every other prop (fill, stroke,
// strokeWidth, …) to the <path>. Remotion's Studio-only props on shapes (effects, debug,
// pixelDensity, Sequence timing) are refused by name.
import { createElement as h } from 'react';
import {
  makeArrow, makeCallout, makeCircle, makeEllipse, makeHeart, makePie, makePolygon, makeRect,
  makeSpark, makeStar, makeTriangle,
} from './@remotion/shapes/make.js';

export {
  makeArrow, makeCallout, makeCircle, makeEllipse, makeHeart, makePie, makePolygon, makeRect,
  makeSpark, makeStar, makeTriangle,
};

// One row per shape: its builder and the options it reads.
const SHAPES = {
  Arrow: [makeArrow, ['length', 'headWidth', 'headLength', 'shaftWidth', 'direction', 'cornerRadius']],
  Callout: [makeCallout, ['width', 'height', 'pointerLength', 'pointerBaseWidth', 'pointerPosition', 'pointerDirection', 'edgeRoundness', 'cornerRadius']],
  Circle: [makeCircle, ['radius']],
  Ellipse: [makeEllipse, ['rx', 'ry']],
  Heart: [makeHeart, ['height', 'aspectRatio', 'bottomRoundnessAdjustment', 'depthAdjustment']],
  Pie: [makePie, ['radius', 'progress', 'closePath', 'counterClockwise', 'rotation']],
  Polygon: [makePolygon, ['points', 'radius', 'edgeRoundness', 'cornerRadius']],
  Rect: [makeRect, ['width', 'height', 'edgeRoundness', 'cornerRadius']],
  Spark: [makeSpark, ['width', 'height', 'edgeRoundness', 'cornerRadius']],
  Star: [makeStar, ['points', 'innerRadius', 'outerRadius', 'edgeRoundness', 'cornerRadius']],
  Triangle: [makeTriangle, ['length', 'direction', 'edgeRoundness', 'cornerRadius']],
};
const REFUSED = ['effects', 'debug', 'pixelDensity', 'from', 'durationInFrames', 'trimBefore', 'freeze', 'hidden', 'showInTimeline', 'controls'];

function component(name, make, options) {
  const C = function Shape(props) {
    const opts = {};
    const rest = {};
    for (const [k, v] of Object.entries(props)) {
      if (options.includes(k)) opts[k] = v;
      else if (REFUSED.includes(k) && v !== undefined) throw new TypeError(`<${name} ${k}> is a Remotion Studio prop of @remotion/shapes that Folio does not provide — wrap the shape in a <Sequence> for timing, and use CSS (style) for effects`);
      else rest[k] = v;
    }
    const { style, pathStyle, ...pathProps } = rest;
    const { path, width, height, transformOrigin } = make(opts);
    return h('svg', { width, height, viewBox: `0 0 ${width} ${height}`, xmlns: 'http://www.w3.org/2000/svg', style: { overflow: 'visible', ...style } },
      h('path', { d: path, transformOrigin, style: pathStyle, ...pathProps }));
  };
  C.displayName = name;
  return C;
}
export const Arrow = component('Arrow', ...SHAPES.Arrow);
export const Callout = component('Callout', ...SHAPES.Callout);
export const Circle = component('Circle', ...SHAPES.Circle);
export const Ellipse = component('Ellipse', ...SHAPES.Ellipse);
export const Heart = component('Heart', ...SHAPES.Heart);
export const Pie = component('Pie', ...SHAPES.Pie);
export const Polygon = component('Polygon', ...SHAPES.Polygon);
export const Rect = component('Rect', ...SHAPES.Rect);
export const Spark = component('Spark', ...SHAPES.Spark);
export const Star = component('Star', ...SHAPES.Star);
export const Triangle = component('Triangle', ...SHAPES.Triangle);
