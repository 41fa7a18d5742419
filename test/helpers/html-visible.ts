/**
 * The visible text of an HTML document, found independently of `src/`: parsed by parse5
 * (the WHATWG tree-construction algorithm, a different parser from the chunker's
 * htmlparser2 tokenizer), walked with the rules docs/html.md states — never rendered:
 * `script`, `style`, `template`, `noscript`, `head`, `title`, `svg`, `iframe`, `object`,
 * `embed`, `canvas`, `video`, `audio`, `map`, `select`, `datalist`, `noembed`,
 * `noframes`, `frameset`, `hidden`, `style="display: none"`, a `dialog` without `open`;
 * dropped landmarks: `nav`, `aside`, and `header` / `footer` outside `article`,
 * `aside`, `main`, `nav`, `section`, and the roles `navigation`, `complementary`,
 * `banner`, `contentinfo` — each non-whitespace character with the source offset it
 * comes from (a character reference: the offset of its `&`).
 *
 * The conformance suite checks the HTML chunker against it: every visible character's
 * offset lies in a chunk, and each chunk's `embedText` holds exactly the visible
 * characters of its span (whitespace and `|` aside; table parts: in order, with labels).
 * @module
 */
import { decodeHTML } from 'entities';
import { parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const SKIPPED = new Set([
  'script', 'style', 'template', 'noscript', 'head', 'title', 'svg', 'iframe', 'object', 'embed', 'canvas', 'video', 'audio', 'map',
  'select', 'datalist', 'noembed', 'noframes', 'frameset',
]);
const ROLES: Record<string, string> = { navigation: 'nav', complementary: 'aside', banner: 'header', contentinfo: 'footer' };
const CONTENT = new Set(['article', 'aside', 'main', 'nav', 'section']);
const ENTITY = /&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z][A-Za-z0-9]*;?)/g;

/** Visible non-whitespace characters (`|` left out) in source order, with their source offsets. */
export interface VisibleChars {
  /** One code point each. */
  chars: string[];
  positions: Int32Array;
}

function attr(el: Element, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

/** The visible characters of `html` with the landmarks in `drop` dropped. */
export function visibleChars(html: string, drop: readonly string[] = ['nav', 'aside', 'header', 'footer']): VisibleChars {
  const doc = parse(html, { sourceCodeLocationInfo: true });
  const found: [number, string][] = [];
  const dropSet = new Set(drop);
  // iterative walk: [node, inside a content scope]
  const stack: [Node, boolean][] = [[doc as unknown as Node, false]];
  while (stack.length) {
    const [node, content] = stack.pop()!;
    if (node.nodeName === '#text') {
      const loc = (node as DefaultTreeAdapterMap['textNode']).sourceCodeLocation;
      const value = (node as DefaultTreeAdapterMap['textNode']).value;
      if (!loc) continue;
      const want = [...value].filter((ch) => !/[\s|]/.test(ch));
      // parse5 can start a text node that begins with a character reference after it, where it implies
      // <html> or <body> (`<!DOCTYPE html>\n&lt;x` starts at the `t`): the node's text may begin earlier,
      // just after the markup before it
      let from = loc.startOffset;
      while (from > 0 && loc.startOffset - from < 40 && html[from - 1] !== '>') from--;
      let mine: [number, string][] = [];
      const same = () => mine.length === want.length && mine.every((m, k) => m[1] === want[k]);
      for (const s0 of [loc.startOffset, from]) {
        mine = [];
        charsOf(html.slice(s0, loc.endOffset), s0, mine);
        if (same()) break;
      }
      if (same()) {
        found.push(...mine);
        continue;
      }
      // text parse5 moved and merged (foster-parented out of a table, after </body>): the text before the
      // span's first tag, then pieces from its end; match the lead from the left and the rest from the end
      const raw = html.slice(from, loc.endOffset);
      mine = [];
      const TAG = /<(?:\/?[A-Za-z][^>]*>?|!--[\s\S]*?(?:-->|$)|[!?][^>]*>?)/g;
      let firstTag = raw.length;
      let at0 = 0;
      for (let t = TAG.exec(raw); ; t = TAG.exec(raw)) {
        const to = t ? t.index : raw.length;
        if (t && firstTag === raw.length) firstTag = t.index;
        charsOf(raw.slice(at0, to), from + at0, mine);
        if (!t) break;
        at0 = t.index + t[0].length;
      }
      const at = new Array<number>(want.length).fill(loc.startOffset);
      const lead = mine.filter((m) => m[0] < from + firstTag);
      let k0 = 0;
      while (k0 < lead.length && k0 < want.length && lead[k0][1] === want[k0]) at[k0] = lead[k0++][0];
      let j = mine.length - 1;
      for (let k = want.length - 1; k >= k0; k--) {
        while (j >= lead.length && mine[j][1] !== want[k]) j--;
        if (j < lead.length) break;
        at[k] = mine[j--][0];
      }
      want.forEach((ch, k) => found.push([at[k], ch]));
      continue;
    }
    const el = node as Element;
    const tag = el.tagName;
    let inContent = content;
    if (tag) {
      if (SKIPPED.has(tag)) continue;
      if (attr(el, 'hidden') !== undefined) continue;
      const style = attr(el, 'style');
      if (style !== undefined && /(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)/i.test(style)) continue;
      if (tag === 'dialog' && attr(el, 'open') === undefined) continue;
      const role = ROLES[attr(el, 'role')?.trim().toLowerCase() ?? ''];
      if (role && dropSet.has(role)) continue;
      if ((tag === 'nav' || tag === 'aside') && dropSet.has(tag)) continue;
      if ((tag === 'header' || tag === 'footer') && dropSet.has(tag) && !content) continue;
      if (CONTENT.has(tag)) inContent = true;
    }
    const children = (el as unknown as { childNodes?: Node[] }).childNodes ?? [];
    for (let k = children.length - 1; k >= 0; k--) stack.push([children[k], inContent]);
  }
  found.sort((a, b) => a[0] - b[0]);
  return { chars: found.map((f) => f[1]), positions: Int32Array.from(found, (f) => f[0]) };
}

/** The non-whitespace characters (not `|`) of raw text starting at source offset `base`, entities decoded (at the offset of their `&`). */
function charsOf(raw: string, base: number, out: [number, string][]): void {
  const emit = (s: string, at: (k: number) => number) => {
    let k = 0;
    for (const ch of s) {
      if (!/[\s|]/.test(ch)) out.push([at(k), ch]);
      k += ch.length;
    }
  };
  let i = 0;
  ENTITY.lastIndex = 0;
  for (let m = ENTITY.exec(raw); m; m = ENTITY.exec(raw)) {
    const start = base + i;
    emit(raw.slice(i, m.index), (k) => start + k);
    const at = base + m.index;
    // a reference decoded from a prefix of the match (`&notit;` → `¬` + `it;`): the rest is text
    const d = decodeHTML(m[0]);
    let k = 0;
    while (k < m[0].length - 1 && k < d.length - 1 && d[d.length - 1 - k] === m[0][m[0].length - 1 - k]) k++;
    emit(d.slice(0, d.length - k), () => at);
    const rest = at + m[0].length - k;
    emit(m[0].slice(m[0].length - k), (j) => rest + j);
    i = m.index + m[0].length;
  }
  const start = base + i;
  emit(raw.slice(i), (k) => start + k);
}

/** The visible characters whose offsets lie in [start, end). */
export function visibleIn(v: VisibleChars, start: number, end: number): string {
  const lower = (x: number) => {
    let lo = 0;
    let hi = v.positions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v.positions[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return v.chars.slice(lower(start), lower(end)).join('');
}

/** `text` without whitespace and `|`. */
export function squeezed(text: string): string {
  return text.replace(/[\s|]/g, '');
}

/** Whether `small` is a subsequence of `big` (UTF-16 code units, in order: lone surrogates stay lone). */
export function isSubsequence(small: string, big: string): boolean {
  let i = 0;
  for (let k = 0; k < big.length && i < small.length; k++) if (big.charCodeAt(k) === small.charCodeAt(i)) i++;
  return i === small.length;
}
