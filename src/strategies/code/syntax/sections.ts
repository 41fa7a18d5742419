/**
 * The sections of one level: items that fit the budget are sections; a definition that
 * does not is expanded in place, fenced by hard boundaries, its signature starting its
 * body's first chunk. Core module.
 * @module
 */
import { definitionOf, isAttachable, type SyntaxDefinition, type SyntaxScope } from './definitions.js';
import { opensAtStatements, expandItem, hasLineBreak, type SyntaxItem, type SyntaxStats } from './items.js';

/** The sections of one level, ready for a packer. */
export interface SyntaxSections {
  readonly count: number;
  readonly starts: number[];
  readonly ends: number[];
  /** No chunk holds section i together with section i − 1 (the edge of an expanded definition). */
  readonly hard: boolean[];
  /** Indivisible and over the budget: to be split inside (the recursive splitter). */
  readonly leaf: boolean[];
  /** The item each section is (to go one level finer when it does not fit after all). */
  readonly items: SyntaxItem[];
  /** Enclosing definitions per section. */
  readonly scopes: SyntaxScope[];
  /** The definition a section is, or null. */
  readonly definitions: (SyntaxDefinition | null)[];
  /** True for a section that is only comments or decorators. */
  readonly attachOnly: boolean[];
  /** True for a head (`if cond:`, a signature) that should not end a chunk: it stays with the section after it where they fit. */
  readonly glue: boolean[];
}

/** Decides whether the run [start, end) fits the budget in `scope` (with its context header). */
export type FitsBudget = (start: number, end: number, scope: SyntaxScope) => boolean;

/**
 * Places `items` (in `scope`): each item that fits is a section; each that does not is
 * expanded in place ({@link expandItem}), an expanded definition fenced by hard
 * boundaries and adding itself to the scope of its sections; an indivisible one is a leaf.
 */
export function syntaxSections(items: SyntaxItem[], text: string, scope: SyntaxScope, fits: FitsBudget, stats?: SyntaxStats): SyntaxSections {
  const out = {
    count: 0,
    starts: [] as number[],
    ends: [] as number[],
    hard: [] as boolean[],
    leaf: [] as boolean[],
    items: [] as SyntaxItem[],
    scopes: [] as SyntaxScope[],
    definitions: [] as (SyntaxDefinition | null)[],
    attachOnly: [] as boolean[],
    glue: [] as boolean[],
  };
  /** A list of items being placed; `head`: no named section of it has started on a later line than its first yet. */
  interface Frame {
    items: SyntaxItem[];
    i: number;
    scope: SyntaxScope;
    fenced: boolean;
    first: number;
    scanned: number;
    lineBreak: boolean;
    head: boolean;
  }
  const frame0 = (list: SyntaxItem[], sc: SyntaxScope, fenced: boolean): Frame => ({ items: list, i: 0, scope: sc, fenced, first: -1, scanned: -1, lineBreak: false, head: true });
  const stack: Frame[] = [{ ...frame0(items, scope, false), head: false }];
  // fences around an opened definition: HARD_ANY before its first section, HARD_NAMED after its last
  // (a closing `}`, `end` or `;` right after it still joins its last chunk; the next item does not)
  const NONE = 0;
  const HARD_ANY = 1;
  const HARD_NAMED = 2;
  let fence = NONE;
  let lastFrame: Frame | undefined; // the frame that placed the last section
  const push = (item: SyntaxItem, sc: SyntaxScope, leaf: boolean, frame: Frame) => {
    // a token (`}`, `;`, `end`) alone: read only where it matters (after an opened definition, in a frame's head)
    const anonymous = (fence === HARD_NAMED || frame.head) && item.node !== null && item.attach === null && !item.trail && !item.node.isNamed;
    out.starts.push(item.start);
    out.ends.push(item.end);
    out.hard.push(out.count > 0 && (fence === HARD_ANY || (fence === HARD_NAMED && !anonymous)));
    out.leaf.push(leaf);
    out.items.push(item);
    out.scopes.push(sc);
    out.definitions.push(item.node ? (definitionOf(item.node, text, sc) ?? null) : null);
    out.attachOnly.push(item.node !== null && item.attach === null && !item.trail && isAttachable(item.node.type));
    out.glue.push(item.glue === true);
    out.count++;
    if (!(fence === HARD_NAMED && anonymous)) fence = NONE;
    // the frame's head: its sections up to the first named one on a later line (scanned once, incrementally)
    const attachOnly = out.attachOnly[out.count - 1];
    if (attachOnly) {
      // comments and decorators before the head do not end it
    } else if (frame.first < 0) frame.first = frame.scanned = item.start;
    else if (frame.head) {
      if (!frame.lineBreak) frame.lineBreak = hasLineBreak(text, frame.scanned, item.start, stats);
      frame.scanned = item.end;
      if (frame.lineBreak && !anonymous) frame.head = false;
    }
    lastFrame = frame;
  };
  /**
   * True for a body or compound statement (a block of statements, `if c: …`) right after
   * heads (`def f():`, `if c:`) that fits alone but not with them: it is opened at its
   * statements, so the heads start a chunk with its first ones instead of ending one alone.
   */
  const bodyAfterHead = (item: SyntaxItem, sc: SyntaxScope): boolean => {
    let j = out.count - 1;
    if (j < 0 || !out.glue[j] || item.node === null || out.scopes[j] !== sc || !opensAtStatements(item.node)) return false;
    while (j > 0 && out.glue[j - 1] && !out.hard[j]) j--;
    return !fits(out.starts[j], item.end, sc);
  };
  while (stack.length) {
    const frame = stack[stack.length - 1];
    if (frame.i >= frame.items.length) {
      stack.pop();
      if (frame.fenced && fence === NONE) fence = HARD_NAMED;
      continue;
    }
    const item = frame.items[frame.i++];
    if (stats) stats.steps++;
    if (fits(item.start, item.end, frame.scope) && !bodyAfterHead(item, frame.scope)) {
      push(item, frame.scope, false, frame);
      continue;
    }
    const expanded = expandItem(item, text, frame.scope, fits, stats);
    if (!expanded) {
      const last = out.count - 1;
      if (last >= 0 && out.glue[last] && out.scopes[last] === frame.scope && fence === NONE) {
        // a head right before a literal over the budget (`class A:` and its docstring): one
        // leaf, so the splitter's first piece holds the head with the literal's start
        out.ends[last] = item.end;
        out.leaf[last] = true;
        out.glue[last] = false;
        out.items[last] = { start: out.starts[last], end: item.end, node: null, attach: null };
        lastFrame = frame;
        continue;
      }
      push(item, frame.scope, true, frame);
      continue;
    }
    // a wrapper (`export …`, decorators) and the definition inside it are one definition: one fence, one scope entry
    const top = frame.scope[frame.scope.length - 1];
    const def = expanded.definition && !(top && top.start === expanded.definition.start && top.end === expanded.definition.end) ? expanded.definition : undefined;
    // a statement cut inside (it has no body to open at: `x = call(…)` over the budget) is
    // fenced as a definition is, so its pieces share no chunk with the statements around it
    const inside = def === undefined && expanded.definition === undefined && item.node !== null && !opensAtStatements(item.node);
    // the enclosing definition's head (`class A {`, `namespace N {`) may start the first chunk of this one
    if ((def || inside) && !(lastFrame === frame && frame.head)) fence = HARD_ANY;
    stack.push(frame0(expanded.items, def ? [...frame.scope, def] : frame.scope, def !== undefined || inside));
  }
  return out;
}
