/**
 * Small PDFs written byte by byte for tests that need many pages or broken files: pages of
 * text lines in Helvetica (a standard font, not embedded), uncompressed content streams,
 * a correct cross-reference table. Hostile variants are made by editing the parts.
 */

/** A line of text at (x, y) in PDF points from the bottom-left corner. */
export interface PdfTextLine {
  x: number;
  y: number;
  size?: number;
  bold?: boolean;
  text: string;
}

/** Options of {@link makePdf}: raw objects in place of the generated ones, for broken files. */
export interface MakePdfOptions {
  /** Page size in points. Default US letter, 612 × 792. */
  width?: number;
  height?: number;
  /** Replaces the content stream of page `i` (0-based) by these bytes (its /Length follows them unless `lyingLength`). */
  rawContent?: (i: number) => { dict?: string; data: Uint8Array } | undefined;
  /** The /Kids of the page tree, as written (default: every page). */
  kids?: (pageRefs: string[]) => string;
  /** The /Count of the page tree, as written (default: the number of pages). */
  count?: string;
  /** Extra objects appended (numbers follow the generated ones): `extra(first)` returns their bodies. */
  extra?: (first: number) => string[];
}

const enc = new TextEncoder();

/** A PDF string literal with `(`, `)` and `\` escaped; other characters must be Latin-1. */
function literal(s: string): string {
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/**
 * A PDF of `pages`, each a list of text lines.
 * @returns the file's bytes
 */
export function makePdf(pages: readonly PdfTextLine[][], options: MakePdfOptions = {}): Uint8Array {
  const width = options.width ?? 612;
  const height = options.height ?? 792;
  // objects: 1 catalog, 2 page tree, 3 regular font, 4 bold font, then per page: page, content
  const bodies: (string | Uint8Array)[] = [];
  const pageRefs: string[] = [];
  const first = 5;
  pages.forEach((lines, i) => {
    const pageObj = first + 2 * i;
    pageRefs.push(`${pageObj} 0 R`);
    bodies[pageObj] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageObj + 1} 0 R >>`;
    const raw = options.rawContent?.(i);
    if (raw) {
      const head = enc.encode(`<< ${raw.dict ?? `/Length ${raw.data.length}`} >>\nstream\n`);
      bodies[pageObj + 1] = concat([head, raw.data, enc.encode('\nendstream')]);
    } else {
      const ops = lines.map((l) => `BT /${l.bold ? 'F2' : 'F1'} ${l.size ?? 10} Tf ${l.x} ${l.y} Td ${literal(l.text)} Tj ET`).join('\n');
      const data = enc.encode(ops);
      bodies[pageObj + 1] = `<< /Length ${data.length} >>\nstream\n${ops}\nendstream`;
    }
  });
  bodies[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  bodies[2] = `<< /Type /Pages /Kids [${options.kids ? options.kids(pageRefs) : pageRefs.join(' ')}] /Count ${options.count ?? pages.length} >>`;
  bodies[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  bodies[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  const next = first + 2 * pages.length;
  (options.extra?.(next) ?? []).forEach((b, k) => (bodies[next + k] = b));
  const parts: Uint8Array[] = [enc.encode('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')];
  let offset = parts[0].length;
  const offsets: number[] = [];
  for (let n = 1; n < bodies.length; n++) {
    const body = bodies[n];
    const bytes = concat([enc.encode(`${n} 0 obj\n`), typeof body === 'string' ? enc.encode(body) : body, enc.encode('\nendobj\n')]);
    offsets[n] = offset;
    parts.push(bytes);
    offset += bytes.length;
  }
  const xref = ['xref', `0 ${bodies.length}`, '0000000000 65535 f ', ...offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n `)].join('\n');
  parts.push(enc.encode(`${xref}\ntrailer\n<< /Size ${bodies.length} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return concat(parts);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Lines of running prose for page `n` of a generated document: a paragraph of `count` lines at 12-point spacing from y = 700. */
export function proseLines(n: number, count = 40): PdfTextLine[] {
  const words = ['river', 'gauge', 'reading', 'station', 'morning', 'survey', 'sediment', 'flood', 'channel', 'sample', 'bottle', 'logger'];
  const lines: PdfTextLine[] = [];
  for (let k = 0; k < count; k++) {
    const line: string[] = [];
    for (let w = 0; w < 11; w++) line.push(words[(n * 7 + k * 3 + w * 5) % words.length]);
    lines.push({ x: 72, y: 700 - 12 * k, text: `${line.join(' ')}${k % 6 === 5 ? '.' : ''}` });
  }
  return lines;
}
