/**
 * Sections of a text cut at line breaks, of about a given size each: the boundary source
 * cluster-semantic chunking segments each section of on its own (bounded memory, and a
 * stream yields a section's chunks as soon as it is complete). Core module: no Node built-ins.
 * @module
 */
import { isBlank } from '../text.js';
import { charCut, type SafeCut } from '../size/safe-cuts.js';

/**
 * Longest line (UTF-16 code units) a section scanner reads as one: a longer line ends
 * the section inside it, so text without line breaks (CJK, Thai, base64) is cut into
 * sections too and streams within a bounded read.
 */
export const LONG_LINE = 1 << 16;

/**
 * Where sections end. Lines are added to the current section one by one (a line's size
 * is measured on its own text, without its line break; whitespace-only lines count 0).
 * Once the section has reached `size` units (it is *full*), it ends after the first
 * blank line that follows; if none comes before the section reaches 2·`size` units, it
 * ends after the line that made it full. A cut is the offset where the next section
 * starts (just after a line break), so sections cover the text without gaps.
 * Resumable over a growing buffer: a line counts once its line break is seen (and, for
 * `\r`, the character after it). Lines after the full point are measured once and kept
 * until the cut (they are measured again for the next section only from that cache).
 * A line longer than {@link LONG_LINE} code units ends the section inside it, at the last
 * safe cut of the unit (`safeCut`) in its second half of those code units, else at a code
 * point boundary; the next section starts there. Linear in the text.
 */
export class SectionScanner {
  #pos = 0; // absolute offset of the next line to scan
  #scanned = 0; // absolute offset up to which the line at #pos is known to hold no line break
  #acc = 0; // units of the section's lines scanned so far
  #fullCut = -1; // the cut after the line that made the section full, or −1
  readonly #sizes = new Map<number, number>(); // sizes of lines after the full point, by start

  constructor(
    readonly size: number,
    readonly measure: (line: string) => number,
    /** Where the unit lets a long line be cut ({@link charCut} when not given). */
    readonly safeCut: SafeCut = charCut,
  ) {}

  /**
   * The next cut in `buf` (whose first character is at absolute offset `bufStart`), or −1
   * when more text is needed to decide. With `final`, the buffer holds the rest of the
   * text; −1 then means the rest is the last section.
   */
  next(buf: string, bufStart: number, final: boolean): number {
    if (!Number.isFinite(this.size)) return -1;
    for (;;) {
      const from = this.#pos - bufStart;
      let e = Math.max(from, this.#scanned - bufStart); // a line arriving in many pieces is searched once
      const limit = Math.min(buf.length, from + LONG_LINE + 1);
      while (e < limit) {
        const c = buf.charCodeAt(e);
        if (c === 10 || c === 13) break;
        e++;
      }
      this.#scanned = bufStart + e;
      if (e - from > LONG_LINE) {
        const window = buf.slice(from, from + LONG_LINE);
        let cut = this.safeCut(window, LONG_LINE >> 1);
        if (cut <= LONG_LINE >> 1) cut = charCut(window, 0);
        return this.#cut(this.#pos + cut, this.#pos + cut);
      }
      if (e >= buf.length) return -1; // the last line is not complete (or is the end of the text)
      let br = 1;
      if (buf.charCodeAt(e) === 13) {
        if (e + 1 >= buf.length && !final) return -1; // \r or \r\n: not known yet
        if (buf.charCodeAt(e + 1) === 10) br = 2;
      }
      const lineStart = this.#pos;
      const next = bufStart + e + br;
      const line = buf.slice(from, e);
      const blank = isBlank(line);
      if (this.#fullCut >= 0 && blank) return this.#cut(next, next);
      let units = 0;
      if (!blank) {
        units = this.#sizes.get(lineStart) ?? this.measure(line);
        if (this.#fullCut >= 0) this.#sizes.set(lineStart, units);
      }
      this.#acc += units;
      this.#pos = next;
      this.#scanned = next;
      if (this.#fullCut < 0) {
        if (this.#acc >= this.size) this.#fullCut = next;
      } else if (this.#acc >= 2 * this.size) return this.#cut(this.#fullCut, this.#fullCut);
    }
  }

  /** Ends the section at `cut` and starts the next one there, scanning from `resume`. */
  #cut(cut: number, resume: number): number {
    this.#pos = resume;
    this.#scanned = resume;
    this.#acc = 0;
    this.#fullCut = -1;
    for (const start of this.#sizes.keys()) if (start < cut) this.#sizes.delete(start);
    return cut;
  }
}
