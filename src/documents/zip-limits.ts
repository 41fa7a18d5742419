/**
 * A cap on what a zip (a .docx) inflates to, checked before a loader hands the zip to a
 * library that inflates it whole in memory (mammoth, through JSZip). Node and browsers:
 * the inflating is the platform's `DecompressionStream('deflate-raw')`.
 * @module
 */
import { DocumentError } from './document-error.js';

/** Default of {@link checkZipInflation}'s `maxInflatedBytes`: 256 MiB. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/** Most entries a zip may list. */
const MAX_ENTRIES = 65_535;

interface Entry {
  name: string;
  method: number;
  compressed: number;
  declared: number;
  offset: number;
}

/** The central directory's entries, or a reason the bytes are not a zip this reader follows. */
function entries(bytes: Uint8Array): Entry[] | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // the end-of-central-directory record: 22 bytes and a comment of up to 65,535
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return 'no zip directory at its end';
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) return 'a ZIP64 archive';
  if (count > MAX_ENTRIES) return `${count} entries`;
  const out: Entry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return 'a zip directory that runs off its end';
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    out.push({ name, method: view.getUint16(at + 10, true), compressed: view.getUint32(at + 20, true), declared: view.getUint32(at + 24, true), offset: view.getUint32(at + 42, true) });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return out;
}

/**
 * Checks that a zip inflates to at most `maxInflatedBytes`, before anything inflates it
 * whole: the sizes its directory declares first (a zip bomb that declares its size fails
 * at once), then the entries themselves, inflated as a stream and stopped at the cap or
 * where an entry runs past its declared size (a bomb that lies).
 * @param source the document's name for the error
 * @throws {DocumentError} reason `too-large` past the cap (naming `maxInflatedBytes`);
 *   `invalid` for bytes whose zip directory cannot be read, or an entry that inflates past
 *   the size it declares.
 */
export async function checkZipInflation(bytes: Uint8Array, source: string, maxInflatedBytes = MAX_INFLATED_BYTES): Promise<void> {
  const list = entries(bytes);
  if (typeof list === 'string') throw new DocumentError(source, 'invalid', `not a Word (.docx) document: ${list}`);
  const tooLarge = (what: string) => new DocumentError(source, 'too-large', `it inflates to ${what}, more than maxInflatedBytes (${maxInflatedBytes})`);
  let declared = 0;
  for (const e of list) declared += e.declared;
  if (declared > maxInflatedBytes) throw tooLarge(`${declared} bytes by its own account`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (const e of list) {
    if (e.method === 0) {
      total += e.compressed;
      continue;
    }
    if (e.method !== 8 || e.offset + 30 > bytes.length || view.getUint32(e.offset, true) !== 0x04034b50) continue; // left to the reader to refuse
    const start = e.offset + 30 + view.getUint16(e.offset + 26, true) + view.getUint16(e.offset + 28, true);
    const data = bytes.subarray(start, Math.min(bytes.length, start + e.compressed));
    const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
    let entry = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        entry += value.length;
        total += value.length;
        if (total > maxInflatedBytes) throw tooLarge('more bytes');
        if (entry > e.declared) throw new DocumentError(source, 'invalid', `its entry ${JSON.stringify(e.name)} inflates past the ${e.declared} bytes it declares`);
      }
    } catch (error) {
      if (error instanceof DocumentError) {
        await reader.cancel().catch(() => undefined);
        throw error;
      }
      // a stream that does not inflate: the reader refuses it with its own words
    }
  }
}
