/** Reads the scan, the mail and the contract draft and lists what each holds. */
import * as fs from 'env:fs';
import * as ocr from 'env:ocr';
import * as email from 'env:email';
import { docx } from 'env:documents';

export default async function () {
  const scan = await ocr.recognize('/inbox/scan-invoice.pdf');
  const scanText = scan.pages.map((p) => p.text).join('\n');
  const invoice = (scanText.match(/INV-\d+/) || ['?'])[0];
  const total = (scanText.match(/Total due:?\s*EUR\s*([\d.,]+)/) || [, '?'])[1];
  const mail = await email.describe('/inbox/offer.eml');
  const contract = await docx.extractText('/inbox/contract-draft.docx');
  const term = (contract.text.match(/payable within (\d+ days)/) || [, '?'])[1];
  const lines = [
    '# Inbox inventory', '',
    `- **scan-invoice.pdf** — scanned invoice ${invoice}, total due EUR ${total}.`,
    `- **offer.eml** — email from ${mail.from}, subject "${mail.subject}", attachment ${mail.attachments.map((a) => a.name).join(', ')}.`,
    `- **contract-draft.docx** — framework agreement draft; payment term as proposed: ${term} (${contract.review.insertions} insertion, ${contract.review.deletions} deletion tracked).`,
    '- **annual-report-2025.pdf** — annual report, 80 pages.',
    '- **sales-export.csv** — CRM sales export.',
    '- **budget-2026.xlsx** — department budget, January to June.',
  ];
  await fs.writeFile('/out/inventory.md', lines.join('\n') + '\n');
  return { invoice, total, term };
}
