/** One row per order with ISO dates and numeric amounts. */
import * as sheets from 'env:spreadsheets';
import { sales } from './lib/sales.js';

const MONTHS = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12 };
function iso(text) {
  const t = String(text).trim();
  let m;
  if ((m = t.match(/^(\d{4})-(\d{2})-(\d{2})$/))) return t;
  const pad = (x) => String(x).padStart(2, '0');
  if ((m = t.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/))) return `${m[3]}-${pad(m[2])}-${pad(m[1])}`;
  if ((m = t.match(/^(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$/))) return `${m[3]}-${pad(MONTHS[m[2]])}-${pad(m[1])}`;
  throw new Error('unknown date ' + t);
}

export default async function () {
  const s = await sales();
  // A real date is an Excel serial number (days since 1899-12-30) shown with a date format.
  const serial = (d) => { const [y, m, dd] = d.split('-').map(Number); return (Date.UTC(y, m - 1, dd) - Date.UTC(1899, 11, 30)) / 86400000; };
  const rows = s.rows.map((r) => [r.order_id, serial(iso(r.date)), r.region, r.amount, r.rep.trim()]);
  return sheets.create('/out/sales-clean.xlsx', { sheets: [{ name: 'Orders',
    rows: [['Order', 'Date', 'Region', 'Amount (USD)', 'Rep'], ...rows],
    styles: { 'A1:E1': { bold: true }, [`D2:D${rows.length + 1}`]: { numFmt: '#,##0.00' }, [`B2:B${rows.length + 1}`]: { numFmt: 'yyyy-mm-dd' } },
    freeze: 'A2' }] });
}
