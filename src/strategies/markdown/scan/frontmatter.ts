/**
 * Front matter (`micromark-extension-frontmatter`): `---` YAML or `+++` TOML on the
 * document's first line, closed by the same fence (YAML also by `...`, as pulldown-cmark
 * and Pandoc accept) within {@link FRONT_MATTER_MAX_LINES} lines. Core module.
 * @module
 */
import { isSpaceTab } from '../chars.js';
import type { Scanner } from './scanner.js';

/**
 * Lines front matter may hold, its closing line included: an opening `---` with no
 * closing line within them is a thematic break. Real front matter is tens of lines; the
 * bound keeps a document that merely starts with a thematic break from being read as
 * front matter up to a `---` hundreds of lines on (one indivisible chunk), and bounds
 * what a stream holds while the fence is open.
 */
export const FRONT_MATTER_MAX_LINES = 256;

/** Front matter at `pos` (the document start): returns where the first line after it starts. */
export function frontMatter(s: Scanner, pos: number): number {
  const t = s.t;
  const c = t.charCodeAt(pos);
  if (c !== 45 && c !== 43) return pos;
  if (t.charCodeAt(pos + 1) !== c || t.charCodeAt(pos + 2) !== c) return pos;
  let e = s.terminator(pos);
  for (let i = pos + 3; i < e; i++) if (!isSpaceTab(t.charCodeAt(i))) return pos;
  const partial = s.opts.partial === true;
  if (e >= s.n) {
    // an opening fence needs a line ending; one at the end of a partial scan may get one
    if (partial) s.openFrontMatter = true;
    return pos;
  }
  let p = e + (t.charCodeAt(e) === 13 && t.charCodeAt(e + 1) === 10 ? 2 : 1);
  // YAML closes with `---` or `...`, TOML with `+++`
  const close = c === 45 ? 46 : c;
  for (let lines = 1; p <= s.n; lines++) {
    if (lines > FRONT_MATTER_MAX_LINES) {
      // no closing line within the bound: the fence is a thematic break, decided
      s.nl = s.cr = -2;
      return pos;
    }
    e = s.terminator(p);
    s.steps++;
    const d = t.charCodeAt(p);
    if ((d === c || d === close) && t.charCodeAt(p + 1) === d && t.charCodeAt(p + 2) === d && p + 3 <= e) {
      let ok = true;
      for (let i = p + 3; i < e; i++) if (!isSpaceTab(t.charCodeAt(i))) ok = false;
      // a fence on the last line of a partial scan may go on (`---x` …): not decided
      if (ok && (e < s.n || !partial)) {
        s.doc.out!.push({ type: c === 45 ? 'yaml' : 'toml', start: pos, end: p + 3 });
        return e >= s.n ? s.n : e + (t.charCodeAt(e) === 13 && t.charCodeAt(e + 1) === 10 ? 2 : 1);
      }
    }
    if (e >= s.n) break;
    p = e + (t.charCodeAt(e) === 13 && t.charCodeAt(e + 1) === 10 ? 2 : 1);
  }
  if (partial) s.openFrontMatter = true;
  s.nl = s.cr = -2; // the searches ran ahead: restart them
  return pos;
}
