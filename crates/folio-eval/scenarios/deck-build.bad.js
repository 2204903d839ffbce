/** Too few slides and no notes. */
import * as slides from 'env:slides';
import { sales } from './lib/sales.js';

export default async function () {
  const s = await sales();
  return slides.create({ title: 'Sales', slides: [
    { title: 'Sales', bullets: [String(s.total)] },
    { title: 'Top region', bullets: [s.top] },
  ] }, '/out/sales-review.pptx');
}
