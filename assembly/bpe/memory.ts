// A bump allocator over the module's linear memory. Nothing is ever freed one by one:
// the permanent tables (Unicode categories, ranks) are laid first, then a scratch region
// that is re-laid from `scratchBase` whenever a call needs more room (see index.ts).
// Every allocation is followed by 16 spare bytes so that word-sized reads past the end of
// a byte string (hashing, comparing) stay inside memory.

let top: usize = 0;

/** Makes sure memory reaches byte `end` (exclusive); traps when it cannot grow. */
export function ensureMemory(end: usize): void {
  const needPages = <i32>((end + 0xffff) >>> 16);
  const have = memory.size();
  if (needPages > have) {
    if (memory.grow(needPages - have) < 0) unreachable();
  }
}

/** Allocates `size` bytes, 16-aligned, followed by 16 spare bytes. */
export function bump(size: usize): usize {
  if (top == 0) top = (__heap_base + 15) & ~(<usize>15);
  const p = top;
  top = (p + size + 16 + 15) & ~(<usize>15);
  ensureMemory(top);
  return p;
}

/** The current end of allocated memory. */
export function bumpTop(): usize {
  if (top == 0) top = (__heap_base + 15) & ~(<usize>15);
  return top;
}

/** Releases everything allocated at or after `p` (p must be a value bumpTop() returned). */
export function bumpReset(p: usize): void {
  top = p;
}
