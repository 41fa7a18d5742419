/**
 * An HTML element tree with exact source offsets, built in linear time from
 * htmlparser2's `Tokenizer`.
 *
 * Why the tokenizer and not htmlparser2's `Parser`: the Parser keeps its open elements
 * in an array it `unshift`s on every start tag and `indexOf`s on every end tag, so a
 * document nested 50,000 deep takes 5 s (17 s with stray end tags), quadratic in the
 * depth (measured, htmlparser2 12.0.0). The tokenizer (states, raw text of `script` /
 * `style` / `textarea` / `title`, entities decoded by the `entities` package, every event
 * with its offsets) is the hard part and is used as is; this module builds the tree
 * with O(1) work per tag: a stack with push/pop, the stack positions of open elements
 * by name, and the HTML standard's tree-construction rules that matter for structure
 * (a block start tag closes an open `p`, `li` closes `li`, `dt`/`dd`, table rows and
 * cells close their open siblings, a heading closes a heading, content closes `head`,
 * end tags close only what is open within their scope), not its recovery of misnested
 * formatting elements (the text and its offsets are the same either way).
 *
 * Offsets are UTF-16 code units of the source string. Core module: no Node built-ins.
 * @module
 */
import { Tokenizer } from 'htmlparser2';

/** An element of the tree. */
export interface HtmlElement {
  /** Lower-case tag name; `#root` for the document. */
  readonly tag: string;
  /** Offset of the `<` of its start tag (implied elements: where they were implied). */
  readonly start: number;
  /** Offset just after the `>` of its start tag. */
  readonly startTagEnd: number;
  /** Offset just after its end tag, or, closed implicitly, after its last content. */
  end: number;
  /** The attributes the chunker reads (`role`, `hidden`, `aria-label`, `title`, `colspan`, `open`, `style`), entities decoded. */
  readonly attrs: Readonly<Record<string, string>> | undefined;
  /** Children in order: elements, and text pieces as indices into {@link HtmlTree.pieces}. */
  readonly children: (HtmlElement | number)[];
  /** A block-level element (or an inline one holding one) lies inside, before any other block. */
  hasBlock: boolean;
  /** A heading belongs to this sectioning element (`section`, `article`, `aside`, `nav`) itself. */
  hasHeading: boolean;
  /** A table cell holding a heading, a table, a form or a sectioning element: its table lays out a page. */
  holdsLayout: boolean;
  /** Skipped whole: never rendered (`script`, `style`, `template`, `head`, `hidden` …); its content is not kept. */
  readonly skipped: boolean;
}

/** Text pieces of a tree: runs of source text, or one decoded character reference each. */
export interface TextPieces {
  /** Number of pieces. */
  count: number;
  /** Source span of piece k: `[starts[k], ends[k])`. */
  starts: Int32Array;
  ends: Int32Array;
  /** The decoded text of a character reference (`&amp;` → `&`); undefined for plain source text. */
  decoded: (string | undefined)[];
}

/** A parsed document. */
export interface HtmlTree {
  readonly source: string;
  readonly root: HtmlElement;
  readonly pieces: TextPieces;
  /** Tokenizer events and stack operations: work counting for linear-time tests. */
  readonly operations: number;
}

/** Elements that are block-level in the HTML standard's rendering section (display other than inline). */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'colgroup', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html',
  'legend', 'li', 'listing', 'main', 'menu', 'nav', 'ol', 'optgroup', 'option', 'p', 'plaintext', 'pre', 'search', 'section', 'summary',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'xmp',
]);

/** Elements whose content is never rendered. */
const SKIPPED_TAGS = new Set([
  'script', 'style', 'template', 'noscript', 'head', 'title', 'svg', 'iframe', 'object', 'embed', 'canvas', 'video', 'audio', 'map',
  'select', 'datalist', 'noembed', 'noframes', 'frameset',
]);

/** Void elements: no content, no end tag. */
const VOID_TAGS = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Start tags that close an open `p` (in button scope). */
const CLOSES_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div', 'dl', 'dd', 'dt', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li', 'listing', 'main', 'menu', 'nav', 'ol', 'p', 'plaintext',
  'pre', 'search', 'section', 'summary', 'table', 'ul', 'xmp',
]);

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const HEADING_SET = new Set(HEADINGS);
const SECTIONING = new Set(['section', 'article', 'aside', 'nav']);
/** What a data table's cell does not hold: a cell with one of these lays out a page. */
const LAYOUT_MARKERS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'form', 'article', 'aside', 'footer', 'header', 'main', 'nav', 'section']);
/** Elements that may stay inside `head`; anything else closes it. */
const HEAD_CONTENT = new Set(['base', 'basefont', 'bgsound', 'link', 'meta', 'noscript', 'script', 'style', 'template', 'title', 'head']);
/** The HTML standard's "has an element in scope" boundaries. */
const SCOPE = ['applet', 'caption', 'html', 'table', 'td', 'th', 'marquee', 'object', 'template'];
const BUTTON_SCOPE = [...SCOPE, 'button'];
const LIST_SCOPE = [...SCOPE, 'ol', 'ul'];
const DL_SCOPE = [...SCOPE, 'dl'];
const TABLE_SCOPE = ['html', 'table', 'template'];
const SCOPE_SET = new Set(SCOPE);

/** Attributes the chunker reads. */
const KEPT_ATTRS = new Set(['role', 'hidden', 'aria-label', 'title', 'colspan', 'open', 'style']);
const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)/i;

/** What the tree builder asks of a tag name, as bits: looked up once per distinct spelling of a document. */
const T_BLOCK = 1;
const T_SKIPPED = 2;
const T_VOID = 4;
const T_CLOSES_P = 8;
const T_HEADING = 16;
const T_SECTIONING = 32;
const T_LAYOUT = 64;
const T_HEAD_CONTENT = 128;
const T_SCOPE = 256;

/** The {@link T_BLOCK}… bits of lower-case tag name `tag`. */
function tagFlags(tag: string): number {
  return (
    (BLOCK_TAGS.has(tag) ? T_BLOCK : 0) |
    (SKIPPED_TAGS.has(tag) ? T_SKIPPED : 0) |
    (VOID_TAGS.has(tag) ? T_VOID : 0) |
    (CLOSES_P.has(tag) ? T_CLOSES_P : 0) |
    (HEADING_SET.has(tag) ? T_HEADING : 0) |
    (SECTIONING.has(tag) ? T_SECTIONING : 0) |
    (LAYOUT_MARKERS.has(tag) ? T_LAYOUT : 0) |
    (HEAD_CONTENT.has(tag) ? T_HEAD_CONTENT : 0) |
    (SCOPE_SET.has(tag) ? T_SCOPE : 0)
  );
}

/** A spelling of a name seen in the source: its lower-case name and, for a tag, its flags (−1 until asked). */
interface Spelling {
  raw: string;
  name: string;
  flags: number;
}

/** Whether an element is never rendered: by tag (`flags`: its {@link tagFlags}), `hidden`, `style="display: none"`, or a `dialog` that is not open. */
function isSkipped(tag: string, flags: number, attrs: Record<string, string> | undefined): boolean {
  if (flags & T_SKIPPED) return true;
  if (!attrs) return tag === 'dialog';
  if (attrs.hidden !== undefined) return true;
  if (attrs.style !== undefined && DISPLAY_NONE.test(attrs.style)) return true;
  return tag === 'dialog' && attrs.open === undefined;
}

/** A growable Int32Array. */
export class IntList {
  data = new Int32Array(256);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }
}

/** Builds the tree from tokenizer events. */
class TreeBuilder {
  readonly source: string;
  readonly root: HtmlElement;
  readonly stack: HtmlElement[];
  /** Stack positions of the open elements, by tag name. */
  readonly #open = new Map<string, number[]>();
  /** Stack positions of the open sectioning elements. */
  readonly #sectioning: number[] = [];
  /** Open elements inside a skipped one (their content is not recorded). */
  #skipDepth = 0;
  #foreign = 0;
  /** End of the last event (where a character reference starts). */
  #cursor = 0;
  #tag = '';
  #tagFlags = 0;
  #tagStart = 0;
  #attrs: Record<string, string> | undefined;
  #attrName = '';
  #attrValue = '';
  readonly starts = new IntList();
  readonly ends = new IntList();
  readonly decoded: (string | undefined)[] = [];
  ops = 0;

  constructor(source: string) {
    this.source = source;
    this.root = element('#root', 0, 0, undefined, false);
    this.stack = [this.root];
  }

  #top(tag: string): number {
    const p = this.#open.get(tag);
    return p && p.length ? p[p.length - 1] : -1;
  }

  /** Position of the open `tag` if no boundary of `scope` lies above it, else -1. */
  #inScope(tag: string, scope: readonly string[]): number {
    const at = this.#top(tag);
    if (at < 0) return -1;
    if (at === this.stack.length - 1) return at; // the current element: nothing lies above it
    for (const b of scope) if (b !== tag && this.#top(b) > at) return -1;
    return at;
  }

  #highest(tags: readonly string[], scope: readonly string[]): number {
    let best = -1;
    for (const t of tags) best = Math.max(best, this.#inScope(t, scope));
    return best;
  }

  /** Pops the stack down to position `pos` inclusive; the element at `pos` ends at `end` (or implicitly). */
  #closeTo(pos: number, end = -1): void {
    while (this.stack.length > pos) {
      const el = this.stack.pop()!;
      this.ops++;
      this.#open.get(el.tag)!.pop();
      if (this.#sectioning.length && this.#sectioning[this.#sectioning.length - 1] === this.stack.length) this.#sectioning.pop();
      if (el.skipped || this.#skipDepth > 0) this.#skipDepth = Math.max(0, this.#skipDepth - 1);
      if (el.tag === 'svg' || el.tag === 'math') this.#foreign--;
      el.end = this.stack.length === pos && end >= 0 ? end : Math.max(el.end, el.startTagEnd);
      const parent = this.stack[this.stack.length - 1];
      if (parent.end < el.end) parent.end = el.end; // the parent's content reaches at least here
    }
  }

  /** The implied end tags a start tag `tag` causes. */
  #implyCloses(tag: string, flags: number): void {
    const head = this.#top('head');
    if (head >= 0 && !(flags & T_HEAD_CONTENT)) this.#closeTo(head);
    if (flags & T_CLOSES_P) {
      const p = this.#inScope('p', BUTTON_SCOPE);
      if (p >= 0) this.#closeTo(p);
    }
    switch (tag) {
      case 'li': {
        const li = this.#inScope('li', LIST_SCOPE);
        if (li >= 0) this.#closeTo(li);
        break;
      }
      case 'dd':
      case 'dt': {
        const d = this.#highest(['dd', 'dt'], DL_SCOPE);
        if (d >= 0) this.#closeTo(d);
        break;
      }
      case 'tr': {
        // the open row (with its cells), else a cell without a row
        const r = this.#inScope('tr', TABLE_SCOPE);
        const at = r >= 0 ? r : this.#highest(['td', 'th'], TABLE_SCOPE);
        if (at >= 0) this.#closeTo(at);
        break;
      }
      case 'td':
      case 'th': {
        const c = this.#highest(['td', 'th'], ['tr', ...TABLE_SCOPE]);
        if (c >= 0) this.#closeTo(c);
        break;
      }
      case 'thead':
      case 'tbody':
      case 'tfoot': {
        const s = this.#highest(['thead', 'tbody', 'tfoot'], TABLE_SCOPE);
        if (s >= 0) this.#closeTo(s);
        break;
      }
      case 'option':
      case 'optgroup': {
        if (this.stack[this.stack.length - 1].tag === 'option') this.#closeTo(this.stack.length - 1);
        if (tag === 'optgroup' && this.stack[this.stack.length - 1].tag === 'optgroup') this.#closeTo(this.stack.length - 1);
        break;
      }
      case 'a':
      case 'button':
      case 'form':
      case 'nobr': {
        const a = this.#inScope(tag, SCOPE);
        if (a >= 0) this.#closeTo(a);
        break;
      }
      default:
        if (flags & T_HEADING && HEADING_SET.has(this.stack[this.stack.length - 1].tag)) this.#closeTo(this.stack.length - 1);
    }
  }

  /** A start tag, after its attributes; `selfClosing` for `<x/>` (honoured in SVG and MathML only). */
  #openElement(endIndex: number, selfClosing: boolean): void {
    const tag = this.#tag;
    const flags = this.#tagFlags;
    const attrs = this.#attrs;
    this.#attrs = undefined;
    this.ops++;
    if ((tag === 'html' || tag === 'body') && this.#top(tag) >= 0) return; // a second <html> or <body>
    if (tag === 'head' && this.#top('body') >= 0) return;
    this.#implyCloses(tag, flags);
    const parent = this.stack[this.stack.length - 1];
    const inSkipped = this.#skipDepth > 0;
    const el = element(tag, this.#tagStart, endIndex + 1, attrs, inSkipped || isSkipped(tag, flags, attrs));
    if (!inSkipped) parent.children.push(el);
    if (parent.end < el.startTagEnd) parent.end = el.startTagEnd;
    if (!inSkipped && !el.skipped && flags & T_BLOCK) markBlock(this.stack);
    if (!inSkipped && flags & T_HEADING && this.#sectioning.length) this.stack[this.#sectioning[this.#sectioning.length - 1]].hasHeading = true;
    if (!inSkipped && flags & T_LAYOUT) {
      const cell = Math.max(this.#top('td'), this.#top('th'));
      if (cell > 0) this.stack[cell].holdsLayout = true;
    }
    if (flags & T_VOID || (selfClosing && this.#foreign > 0)) {
      el.end = el.startTagEnd;
      return;
    }
    let positions = this.#open.get(tag);
    if (!positions) this.#open.set(tag, (positions = []));
    positions.push(this.stack.length);
    if (flags & T_SECTIONING) this.#sectioning.push(this.stack.length);
    if (tag === 'svg' || tag === 'math') this.#foreign++;
    if (el.skipped || inSkipped) this.#skipDepth++;
    this.stack.push(el);
  }

  /** An end tag `</tag>` whose name ends at `endIndex`; returns the offset after its `>` (the source's end if none). */
  #close(tag: string, flags: number, endIndex: number): number {
    this.ops++;
    let end = this.source.charCodeAt(endIndex) === 62 ? endIndex + 1 : this.source.indexOf('>', endIndex) + 1;
    if (end <= 0) end = this.source.length;
    if (flags & T_VOID) {
      if (tag === 'br') {
        // </br> is a <br>
        this.#tag = 'br';
        this.#tagFlags = flags;
        this.#tagStart = this.#cursor;
        this.#openElement(end - 1, false);
      }
      return end;
    }
    if (tag === 'html' || tag === 'body') return end; // content after </body> is still the body's
    let at: number;
    if (flags & T_HEADING) at = this.#highest(HEADINGS, SCOPE);
    else if (tag === 'li') at = this.#inScope(tag, LIST_SCOPE);
    else if (tag === 'dd' || tag === 'dt') at = this.#inScope(tag, DL_SCOPE);
    else if (tag === 'p') at = this.#inScope(tag, BUTTON_SCOPE);
    else if (flags & T_SCOPE || tag === 'tr' || tag === 'thead' || tag === 'tbody' || tag === 'tfoot') at = this.#inScope(tag, TABLE_SCOPE);
    else at = this.#inScope(tag, SCOPE);
    if (at > 0) this.#closeTo(at, end);
    return end;
  }

  #text(start: number, end: number, decoded: string | undefined): void {
    this.ops++;
    if (end <= start) return;
    let top = this.stack[this.stack.length - 1];
    if (top.tag === 'head' && (decoded !== undefined || /\S/.test(this.source.slice(start, end)))) {
      // text directly in <head> closes it: the text is the body's
      this.#closeTo(this.stack.length - 1);
      top = this.stack[this.stack.length - 1];
    }
    if (this.#skipDepth > 0) return;
    const k = this.starts.length;
    this.starts.push(start);
    this.ends.push(end);
    this.decoded.push(decoded);
    top.children.push(k);
    if (top.end < end) top.end = end;
  }

  /** Lower-case names seen so far, by their source spelling (most documents use a few dozen). */
  readonly #names = new Map<string, string>();

  /** The last spelling seen per (length, first and last code unit): most names are found here without a slice. */
  readonly #spellings = new Map<number, Spelling>();

  /** The spelling of the tag or attribute name at `[start, end)`. */
  #spelling(start: number, end: number): Spelling {
    const src = this.source;
    const key = (end - start) * 4294967296 + src.charCodeAt(start) * 65536 + src.charCodeAt(end - 1);
    const seen = this.#spellings.get(key);
    if (seen !== undefined && src.startsWith(seen.raw, start)) return seen;
    const raw = src.slice(start, end);
    let name = this.#names.get(raw);
    if (name === undefined) {
      name = raw.toLowerCase();
      if (this.#names.size < 4096) this.#names.set(raw, name);
    }
    const spelling: Spelling = { raw, name, flags: -1 };
    if (this.#spellings.size < 4096 || seen !== undefined) this.#spellings.set(key, spelling);
    return spelling;
  }

  /** The tag name at `[start, end)` and its {@link tagFlags}. */
  #tagName(start: number, end: number): Spelling {
    const spelling = this.#spelling(start, end);
    if (spelling.flags < 0) spelling.flags = tagFlags(spelling.name);
    return spelling;
  }

  /** The callbacks htmlparser2's Tokenizer calls. */
  callbacks(): ConstructorParameters<typeof Tokenizer>[1] {
    const src = this.source;
    // comments, CDATA, declarations and processing instructions carry no text: skipped
    const skip = (_start: number, endIndex: number) => {
      this.ops++;
      this.#cursor = endIndex + 1;
    };
    return {
      onopentagname: (start, endIndex) => {
        const tag = this.#tagName(start, endIndex);
        this.#tag = tag.name;
        this.#tagFlags = tag.flags;
        this.#tagStart = start - 1;
      },
      onattribname: (start, endIndex) => {
        this.#attrName = this.#spelling(start, endIndex).name;
        this.#attrValue = '';
      },
      onattribdata: (start, endIndex) => {
        if (KEPT_ATTRS.has(this.#attrName)) this.#attrValue += src.slice(start, endIndex);
      },
      onattribentity: (cp) => {
        if (KEPT_ATTRS.has(this.#attrName)) this.#attrValue += String.fromCodePoint(cp);
      },
      onattribend: () => {
        if (KEPT_ATTRS.has(this.#attrName)) {
          this.#attrs ??= {};
          this.#attrs[this.#attrName] ??= this.#attrValue;
        }
      },
      onopentagend: (endIndex) => {
        this.#openElement(endIndex, false);
        this.#cursor = endIndex + 1;
      },
      onselfclosingtag: (endIndex) => {
        this.#openElement(endIndex, true);
        this.#cursor = endIndex + 1;
      },
      onclosetag: (start, endIndex) => {
        const tag = this.#tagName(start, endIndex);
        this.#cursor = this.#close(tag.name, tag.flags, endIndex);
      },
      ontext: (start, endIndex) => {
        this.#text(start, endIndex, undefined);
        this.#cursor = endIndex;
      },
      ontextentity: (cp, endIndex) => {
        this.#text(this.#cursor, endIndex, String.fromCodePoint(cp));
        this.#cursor = endIndex;
      },
      oncomment: skip,
      oncdata: skip,
      ondeclaration: skip,
      onprocessinginstruction: skip,
      onend: () => {
        this.#closeTo(1);
      },
      isInForeignContext: () => this.#foreign > 0,
    };
  }
}

function element(tag: string, start: number, startTagEnd: number, attrs: Record<string, string> | undefined, skipped: boolean): HtmlElement {
  return { tag, start, startTagEnd, end: startTagEnd, attrs, children: [], hasBlock: false, hasHeading: false, holdsLayout: false, skipped };
}

/**
 * A block element opens under the top of `stack`: the open elements up to the nearest
 * block one learn that they hold a block (each element is marked once, so the work is
 * linear over the document).
 */
function markBlock(stack: HtmlElement[]): void {
  for (let i = stack.length - 1; i >= 0; i--) {
    const el = stack[i];
    if (el.hasBlock) return;
    el.hasBlock = true;
    if (BLOCK_TAGS.has(el.tag)) return;
  }
}

/**
 * Parses HTML into an element tree with exact source offsets, in time linear in the
 * source: any string is accepted (unclosed tags, stray end tags, text only, a 10 MB
 * line); nothing throws.
 * @param source the HTML; offsets are UTF-16 code units of it.
 */
export function parseHtmlTree(source: string): HtmlTree {
  const builder = new TreeBuilder(source);
  const tokenizer = new Tokenizer({ decodeEntities: true }, builder.callbacks());
  tokenizer.write(source);
  tokenizer.end();
  builder.root.end = source.length;
  const pieces: TextPieces = { count: builder.starts.length, starts: builder.starts.data, ends: builder.ends.data, decoded: builder.decoded };
  return { source, root: builder.root, pieces, operations: builder.ops };
}
