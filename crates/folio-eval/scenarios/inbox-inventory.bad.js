/** Reads the contract with its changes rejected and never looks inside the scan. */
import * as fs from 'env:fs';
import * as email from 'env:email';
import { docx } from 'env:documents';

export default async function () {
  const mail = await email.describe('/inbox/offer.eml');
  const contract = await docx.extractText('/inbox/contract-draft.docx', { changes: 'reject' });
  const term = (contract.text.match(/payable within (\d+ days)/) || [, '?'])[1];
  await fs.writeFile('/out/inventory.md', `- scan-invoice.pdf: a scan\n- offer.eml: ${mail.from}, ${mail.subject}\n- contract: payable within ${term}\n`);
}
