/**
 * Hostile documents for the loaders' failure tests, made in memory: PDFs broken in the ways
 * real files break (page trees that loop, counts that lie, streams that do not inflate,
 * tokens that are not numbers, truncation, too many text items) and DOCX zip bombs.
 */
import { constants, deflateRawSync } from 'node:zlib';
import { makePdf, proseLines, type PdfTextLine } from './make-pdf.js';

const enc = new TextEncoder();
const two = [proseLines(0, 5), proseLines(1, 5)];

/** Content of one row of `n` text items, each in its own text object (fonts alternate), 0.003 points apart. */
function manyItemsOnOneRow(n: number): Uint8Array {
  const ops: string[] = [];
  for (let i = 0; i < n; i++) ops.push(`BT /F${(i % 2) + 1} 6 Tf ${(72 + i * 0.003).toFixed(3)} 700 Td (${String.fromCharCode(97 + (i % 26))}) Tj ET`);
  return enc.encode(ops.join('\n'));
}

/** The hostile PDFs by name: what each is, and its bytes. */
export function hostilePdfs(): Record<string, Uint8Array> {
  const good = makePdf(two);
  return {
    'page tree that loops': makePdf(two, { kids: () => '2 0 R' }),
    'page tree whose kid is its own parent page': makePdf(two, { kids: (refs) => `${refs[0]} 2 0 R`, count: '3' }),
    'count that lies (a million pages, two kids)': makePdf(two, { count: '1000000' }),
    'count that lies (negative)': makePdf(two, { count: '-5' }),
    'flate stream that does not inflate': makePdf(two, { rawContent: (i) => (i === 0 ? { dict: '/Length 40 /Filter /FlateDecode', data: enc.encode('this is not deflate data at all, no....') } : undefined) }),
    'content length that lies': makePdf(two, { rawContent: (i) => (i === 0 ? { dict: '/Length 999999', data: enc.encode('BT /F1 10 Tf 72 700 Td (short) Tj ET') } : undefined) }),
    'bad number token in the content': makePdf(two, { rawContent: () => ({ data: enc.encode('BT /F1 1-0.-.5 Tf 7-2 70..0 Td (x) Tj ET BT /F1 10 Tf 72 650 Td (after) Tj ET') }) }),
    'bad number token in the page tree': makePdf(two, { count: '2-.-2' }),
    'truncated at 60 %': good.slice(0, Math.floor(good.length * 0.6)),
    'truncated in the header': good.slice(0, 12),
    'empty file': new Uint8Array(0),
    '150,000 items on one row': makePdf([[]], { rawContent: () => ({ data: manyItemsOnOneRow(150_000) }) }),
  };
}

/** Pages of prose with a running header of 13+ characters and a page number: `pages` of them. */
export function longPdf(pages: number): Uint8Array {
  const list: PdfTextLine[][] = [];
  for (let i = 0; i < pages; i++) list.push([{ x: 72, y: 750, text: 'Sediment Survey Handbook, second edition' }, ...proseLines(i, 40), { x: 290, y: 40, text: `Page ${i + 1}` }]);
  return makePdf(list);
}

/** A .docx-shaped zip whose one entry inflates to `bytes` zero bytes (a multiple of 1 MiB; declared honestly, or declared as 100 bytes), made without holding them. */
export function zipBomb(bytes: number, lie = false): Uint8Array {
  const name = enc.encode('word/document.xml');
  // one mebibyte of zeros deflated with a sync flush (non-final blocks, byte-aligned) repeated, then an empty final block
  const block = deflateRawSync(Buffer.alloc(Math.min(bytes, 1 << 20)), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const blocks = Math.ceil(bytes / (1 << 20));
  const data = new Uint8Array(block.length * blocks + 2);
  for (let k = 0; k < blocks; k++) data.set(block, k * block.length);
  data.set([0x03, 0x00], block.length * blocks);
  const u32 = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
  const u16 = (v: number) => [v & 0xff, (v >>> 8) & 0xff];
  const declared = lie ? 100 : bytes;
  const local = new Uint8Array([...u32(0x04034b50), ...u16(20), ...u16(0), ...u16(8), ...u16(0), ...u16(0), ...u32(0), ...u32(data.length), ...u32(declared), ...u16(name.length), ...u16(0), ...name]);
  const central = new Uint8Array([...u32(0x02014b50), ...u16(20), ...u16(20), ...u16(0), ...u16(8), ...u16(0), ...u16(0), ...u32(0), ...u32(data.length), ...u32(declared), ...u16(name.length), ...u16(0), ...u16(0), ...u16(0), ...u16(0), ...u32(0), ...u32(0), ...name]);
  const cdOffset = local.length + data.length;
  const end = new Uint8Array([...u32(0x06054b50), ...u16(0), ...u16(0), ...u16(1), ...u16(1), ...u32(central.length), ...u32(cdOffset), ...u16(0)]);
  const out = new Uint8Array(local.length + data.length + central.length + end.length);
  out.set(local, 0);
  out.set(data, local.length);
  out.set(central, cdOffset);
  out.set(end, cdOffset + central.length);
  return out;
}
