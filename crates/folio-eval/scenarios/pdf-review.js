/** Finds the four points and the Lyon provision page by page and writes the briefing with citations. */
import * as fs from 'env:fs';
import { pdf } from 'env:documents';

export default async function () {
  const { perPage } = await pdf.extractText('/inbox/annual-report-2025.pdf');
  const find = (re) => {
    for (const p of perPage) {
      const text = p.text.replace(/\s+/g, ' ');
      const m = text.match(re);
      if (m) return { page: p.page, sentence: m[0].trim() };
    }
    return null;
  };
  const points = [
    ['Rotterdam lease', /[^.]*Rotterdam[^.]*lease[^.]*\.\d[^.]*\./],
    ['Nordic churn', /[^.]*churn[^.]*Nordic[^.]*\.\d[^.]*\./],
    ['Open provisions', /A provision of EUR [\d.]+ million remains open[^.]*\./],
    ['Share buyback', /[^.]*buyback[^.]*\./],
  ];
  const lines = ['# Briefing: annual report 2025', ''];
  for (const [label, re] of points) {
    const hit = find(re);
    lines.push(hit ? `- **${label}:** ${hit.sentence} (p. ${hit.page})` : `- **${label}:** not found in the report.`);
  }
  const lyon = find(/[^.]*Lyon[^.]*settled[^.]*\./);
  if (lyon) lines.push(`- **Settled, for reference:** ${lyon.sentence} (p. ${lyon.page}); it is no longer open.`);
  lines.push('', 'The report states neither the chief executive\'s pay nor a 2026 dividend.');
  await fs.writeFile('/out/briefing.md', lines.join('\n') + '\n');
  return { points: lines.length };
}
