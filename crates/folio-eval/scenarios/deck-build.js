/** The sales review deck: five slides, each with notes. */
import * as slides from 'env:slides';
import { sales } from './lib/sales.js';

export default async function () {
  const s = await sales();
  const money = (x) => '$' + x.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const deck = await slides.create({ title: 'Sales review', slides: [
    { title: 'Sales review', bullets: [`${s.rows.length} orders, January to June 2025`], notes: 'What the export shows, in five slides.' },
    { title: 'Total sales', metric: { value: money(s.total), caption: 'all regions' }, notes: `Total sales were ${money(s.total)}.` },
    { title: 'Regions compared', chart: { type: 'bar', categories: s.regions.map((r) => r[0]), series: [{ name: 'Sales', values: s.regions.map((r) => r[1]) }] }, notes: 'Bars in descending order of sales.' },
    { title: 'Top region', bullets: [`${s.top}: ${money(s.regions[0][1])}`], notes: `${s.top} leads the regions.` },
    { title: 'Next steps', bullets: ['Review the smallest region', 'Repeat next quarter'], notes: 'Questions and next steps.' },
  ] }, '/out/sales-review.pptx');
  return deck;
}
