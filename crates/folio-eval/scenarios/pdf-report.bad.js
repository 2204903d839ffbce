/** Two pages where one was asked for. */
import { pdf } from 'env:documents';
import { sales } from './lib/sales.js';

export default async function () {
  const s = await sales();
  return pdf.create('/out/sales-report.pdf', { content: [
    { heading: 'Sales' }, { text: `Total sales: ${s.total.toFixed(2)}. ${s.top} leads with ${s.regions[0][1].toFixed(2)}.` },
    { pageBreak: true }, { text: 'Appendix' },
  ] });
}
