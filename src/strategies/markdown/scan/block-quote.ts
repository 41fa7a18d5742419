/**
 * Block quotes (CommonMark §5.1): `>` and one optional space open a container. Core module.
 * @module
 */
import { isSpaceTab } from '../chars.js';
import { BLOCKQUOTE } from './node.js';
import type { Scanner } from './scanner.js';

/** Opens a block quote at the scanner's next non-space (a `>`). */
export function blockQuoteStart(s: Scanner): void {
  const t = s.t;
  const end = s.lineEnd;
  s.advanceNextNonspace();
  const gt = s.offset;
  s.advanceOffset(1, false);
  if (isSpaceTab(t.charCodeAt(s.offset)) && s.offset < end) s.advanceOffset(1, true);
  s.closeUnmatched();
  const q = s.add(BLOCKQUOTE, gt);
  q.end = gt + 1;
}
