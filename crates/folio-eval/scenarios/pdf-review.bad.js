/** A careless briefing: the Lyon provision as if it were open, and no page citations. */
import * as fs from 'env:fs';
import { pdf } from 'env:documents';

export default async function () {
  const { text } = await pdf.extractText('/inbox/annual-report-2025.pdf');
  const flat = text.replace(/\s+/g, ' ');
  const lyon = (flat.match(/EUR [\d.]+ million for the Lyon/) || ['EUR ? million for the Lyon'])[0];
  await fs.writeFile('/out/briefing.md', `# Briefing\n\n- Open provisions: ${lyon} supplier dispute.\n- Churn improved.\n`);
}
