// The page's arithmetic, apart from the DOM: bands that align several strategies' chunks
// over one text, lost text, histogram bins, and questions pasted with their excerpts.
// Pure functions over plain data (offsets are UTF-16 code units); linear or n log n in
// the number of chunks, so a 500 KB document stays fast.

/**
 * Cuts [0, textLength) at every chunk start and end of every column. For each band and
 * column: the chunks covering the band (`cover`, indices into that column's chunks) and
 * the chunks starting at its first offset (`starts`).
 * @param columns arrays of `{ start, end }`, one array per column
 * @returns bands `{ from, to, cells: [{ cover, starts }] }` in text order
 */
export function alignBands(textLength, columns) {
  const cuts = new Set([0, textLength]);
  for (const chunks of columns) for (const c of chunks) cuts.add(c.start).add(c.end);
  const points = Float64Array.from(cuts).sort();
  const orders = columns.map((chunks) => chunks.map((_, i) => i).sort((a, b) => chunks[a].start - chunks[b].start || a - b));
  const next = columns.map(() => 0);
  const active = columns.map(() => []);
  const bands = [];
  for (let p = 0; p + 1 < points.length; p++) {
    const from = points[p];
    const cells = columns.map((chunks, k) => {
      const order = orders[k];
      const starts = [];
      while (next[k] < order.length && chunks[order[next[k]]].start <= from) {
        const i = order[next[k]++];
        if (chunks[i].end > from) active[k].push(i);
        if (chunks[i].start === from) starts.push(i);
      }
      active[k] = active[k].filter((i) => chunks[i].end > from);
      return { cover: active[k].slice(), starts };
    });
    bands.push({ from, to: points[p + 1], cells });
  }
  return bands;
}

/**
 * Text in no chunk: the gaps between the union of the chunks, and the non-whitespace
 * characters (code points) in them.
 * @returns `{ ranges: [{ start, end, chars }], chars }` (ranges hold non-whitespace only)
 */
export function lostText(text, chunks) {
  const spans = chunks.map((c) => [c.start, c.end]).sort((a, b) => a[0] - b[0]);
  const ranges = [];
  let chars = 0;
  let at = 0;
  const gap = (from, to) => {
    if (to <= from) return;
    const n = (text.slice(from, to).match(/\S/gu) ?? []).length;
    if (n > 0) {
      ranges.push({ start: from, end: to, chars: n });
      chars += n;
    }
  };
  for (const [s, e] of spans) {
    gap(at, s);
    at = Math.max(at, e);
  }
  gap(at, text.length);
  return { ranges, chars };
}

/** The smallest 1, 2 or 5 × 10^k that is ≥ x (x > 0). */
function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

/**
 * Histogram bins of equal width over [0, max]: width a 1/2/5 step near max / target,
 * edges 0, w, 2w, … with the last edge > max; bin i counts values v with
 * edges[i] ≤ v < edges[i + 1].
 * @returns `{ edges, counts }` (edges.length === counts.length + 1)
 */
export function histogram(values, max = Math.max(0, ...values), target = 16) {
  const width = max > 0 ? Math.max(1, niceStep(max / target)) : 1;
  const bins = Math.floor(max / width) + 1;
  const edges = Array.from({ length: bins + 1 }, (_, i) => i * width);
  const counts = new Array(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor(v / width))]++;
  return { edges, counts };
}

const ESCAPES = { n: '\n', t: '\t', r: '\r', '\\': '\\' };

/**
 * Questions pasted one per line as `question<TAB>excerpt[<TAB>excerpt…]`; each excerpt is
 * located in `text` by exact match (the first occurrence; where the excerpt as written
 * is not found, `\n`, `\t`, `\r` and `\\` in it are read as escapes and tried again).
 * Empty lines and lines starting with `#` are skipped.
 * @returns `{ questions, problems }`: questions in the evaluation's shape (`corpusId`,
 *   `references: [{ content, start, end }]`), problems `{ line, message }` for lines
 *   left out or references found more than once.
 */
export function parsePastedQuestions(pasted, text, corpusId = 'doc') {
  const questions = [];
  const problems = [];
  pasted.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim() || raw.trimStart().startsWith('#')) return;
    const [question, ...excerpts] = raw.split('\t');
    if (!question.trim() || excerpts.filter((e) => e.length).length === 0) {
      problems.push({ line, message: 'needs a question, a tab, then the excerpt' });
      return;
    }
    const references = [];
    for (const written of excerpts.filter((e) => e.length)) {
      let content = written;
      let start = text.indexOf(content);
      if (start < 0 && written.includes('\\')) {
        content = written.replace(/\\([ntr\\])/g, (_, c) => ESCAPES[c]);
        start = text.indexOf(content);
      }
      if (start < 0) {
        problems.push({ line, message: `excerpt not found in the document: ${JSON.stringify(written.slice(0, 60))}` });
        return;
      }
      if (text.indexOf(content, start + 1) >= 0) problems.push({ line, message: `excerpt occurs more than once; the first occurrence (at ${start}) is used` });
      references.push({ content, start, end: start + content.length });
    }
    questions.push({ question: question.trim(), corpusId, references });
  });
  return { questions, problems };
}
