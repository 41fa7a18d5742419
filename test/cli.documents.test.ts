/**
 * The CLI on documents as a new user runs it, with no flags: `chunk` and `embed` default to
 * `--strategy auto` (a Word file through the HTML strategy with heading paths and no tags in
 * embedText; stdin and files of no known extension by fixed), text decoding (UTF-8,
 * UTF-16 with a BOM, `--encoding`, never a silent U+FFFD), `--pdf-password`, and
 * `--skip-unsupported` over the document loaders. Runs the built CLI (`npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hidePackagesArgs } from './helpers/hidden-packages.js';
import { cliBin, repoRoot } from './helpers/paths.js';

const documents = join(repoRoot, 'test', 'fixtures', 'documents');

interface Row {
  source: string;
  text: string;
  embedText?: string;
  tokenCount: number;
  metadata: Record<string, unknown> & { strategy: string; headingPath?: string[] };
}

function run(args: string[], input?: string | Uint8Array, nodeArgs: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, cliBin, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  const rows = r.stdout.startsWith('{') ? r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row) : [];
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, rows };
}

const TAG = /<\/?(p|td|th|tr|table|h[1-6]|li|ul|ol|strong|em|a)\b/;

describe('chunk and embed default to --strategy auto', () => {
  it('chunk handbook.docx with no flags: the HTML strategy, heading paths, no tags in embedText', () => {
    const r = run(['chunk', join(documents, 'handbook.docx')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.rows.length).toBeGreaterThanOrEqual(3);
    expect(new Set(r.rows.map((c) => c.metadata.strategy))).toEqual(new Set(['html']));
    expect(r.rows.filter((c) => (c.metadata.headingPath?.length ?? 0) > 0).length).toBeGreaterThanOrEqual(r.rows.length - 1);
    expect(r.rows.map((c) => c.metadata.headingPath?.join(' > '))).toContain('Visiting a station > Before the visit');
    for (const c of r.rows) {
      expect(c.embedText, c.text).toBeDefined();
      expect(c.embedText).not.toMatch(TAG);
      expect(c.text).toMatch(TAG); // offsets point into mammoth's HTML, which the embedder never sees
    }
    // the fixed strategy, which was the default, sent the tags to the embedder
    const fixed = run(['chunk', join(documents, 'handbook.docx'), '--strategy', 'fixed']);
    expect(fixed.rows.some((c) => TAG.test(c.embedText ?? c.text))).toBe(true);
  });

  it('stdin and a file of no known extension fall back to fixed; .md gets markdown; embed picks as chunk does', () => {
    const text = '# Title\n\nSome words here. More words there.\n';
    expect(run(['chunk', '-'], text).rows.map((c) => c.metadata.strategy)).toEqual(['fixed']);
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-auto-'));
    writeFileSync(join(dir, 'notes.log'), text);
    writeFileSync(join(dir, 'notes.md'), text);
    expect(run(['chunk', join(dir, 'notes.log')]).rows.map((c) => c.metadata.strategy)).toEqual(['fixed']);
    expect(run(['chunk', join(dir, 'notes.md')]).rows.map((c) => c.metadata.strategy)).toEqual(['markdown']);
    expect(run(['embed', join(dir, 'notes.md')]).rows.map((c) => c.metadata.strategy)).toEqual(['markdown']);
    // a flag no strategy auto picks takes is a usage error naming them
    const bad = run(['chunk', join(dir, 'notes.md'), '--window-size', '8']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--window-size is not an option of any strategy --strategy auto picks/);
  });

  it('auto picks by the sniffed kind: PDF and Word bytes are loaded as such whatever their name, in chunk, chunk --workers and embed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-sniff-'));
    copyFileSync(join(documents, 'report.pdf'), join(dir, 'report-download'));
    copyFileSync(join(documents, 'handbook.docx'), join(dir, 'handbook.txt'));
    const want = run(['chunk', join(documents, 'report.pdf'), '--chunk-size', '200']).rows;
    expect(want.length).toBeGreaterThan(1);
    const pdf = run(['chunk', join(dir, 'report-download'), '--chunk-size', '200']);
    expect(pdf.code, pdf.stderr).toBe(0);
    // the same chunks as the .pdf's: the recursive strategy over the extracted text, pages and boxes kept
    expect(pdf.rows.map((c) => ({ ...c, source: '' }))).toEqual(want.map((c) => ({ ...c, source: '' })));
    const docx = run(['chunk', join(dir, 'handbook.txt')]);
    expect(docx.code, docx.stderr).toBe(0);
    expect(docx.rows.every((c) => c.metadata.strategy === 'html' && c.metadata.documentFormat === 'docx-html' && !TAG.test(c.embedText ?? ''))).toBe(true);
    const both = [join(dir, 'handbook.txt'), join(dir, 'report-download')];
    const workers = run(['chunk', ...both, '--workers', '2', '--chunk-size', '200']);
    expect(workers.code, workers.stderr).toBe(0);
    expect(workers.stdout).toBe(run(['chunk', ...both, '--chunk-size', '200']).stdout);
    const embedded = run(['embed', join(dir, 'report-download'), '--chunk-size', '200']);
    expect(embedded.code, embedded.stderr).toBe(0);
    expect(embedded.rows.map((c) => c.metadata.pages)).toEqual(want.map((c) => c.metadata.pages));
    expect(embedded.rows.map((c) => c.metadata.boxes)).toEqual(want.map((c) => c.metadata.boxes));
  });

  it('--help says auto is the default and what it picks, from the registry', () => {
    const help = run(['chunk', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('default: "auto"');
    expect(help).toContain('.md/.markdown/.mdx markdown');
    expect(help).toContain('.docx html (its HTML); stdin and other files fixed');
  });
});

describe('text decoding like a user expects', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-decode-'));
  const text = 'Café crème, naïve façade: déjà vu.\n';
  const utf16be = (s: string) => {
    const le = Buffer.from(s, 'utf16le');
    for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
    return le;
  };

  it('UTF-16 LE and BE with a byte order mark read as text (the BOM kept as U+FEFF, as in UTF-8)', () => {
    writeFileSync(join(dir, 'le.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    writeFileSync(join(dir, 'be.txt'), Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]));
    for (const f of ['le.txt', 'be.txt']) {
      const r = run(['chunk', join(dir, f)]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.rows.map((c) => c.text).join('')).toBe(`\ufeff${text}`.trim());
    }
  });

  it('Latin-1 without --input-encoding: one line naming the file and the flag, nothing written; with it, the text', () => {
    const file = join(dir, 'latin1.txt');
    writeFileSync(file, Buffer.from(text, 'latin1'));
    const r = run(['chunk', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`chunkwise: cannot read ${file}: not valid UTF-8; give its encoding with --input-encoding (e.g. --input-encoding latin1)\n`);
    const ok = run(['chunk', file, '--input-encoding', 'latin1']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.rows.map((c) => c.text).join('')).toBe(text.trim());
    expect(ok.stdout).not.toContain('\ufffd');
    // stdin too, and embed
    expect(run(['chunk', '-', '--input-encoding', 'latin1'], Buffer.from(text, 'latin1')).rows[0].text.trim()).toBe(text.trim());
    expect(run(['embed', file, '--input-encoding', 'windows-1252']).rows[0].text.trim()).toBe(text.trim());
    const bad = run(['chunk', file, '--input-encoding', 'klingon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^chunkwise: --input-encoding klingon is not an encoding/);
  });

  it('--pdf-password opens an encrypted PDF; without it, one line asking for it', () => {
    const file = join(documents, 'encrypted.pdf');
    const without = run(['chunk', file]);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/password/);
    const r = run(['chunk', file, '--pdf-password', 'secret', '--chunk-size', '200']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.rows.map((c) => c.text).join(' ')).toContain('read and summarise river gauge logs');
    expect(r.rows.every((c) => (c.metadata.pages as { first: number }).first >= 1)).toBe(true);
  });
});

describe('--skip-unsupported covers the document loaders', () => {
  it('without pdfjs-dist and mammoth: the PDFs and the Word file are left out, each package named once, before any output', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-nopeers-'));
    for (const f of ['handbook.md', 'manual.pdf', 'report.pdf', 'handbook.docx']) copyFileSync(join(documents, f), join(dir, f));
    const hide = hidePackagesArgs(['pdfjs-dist', 'mammoth']);
    const failed = run(['chunk', dir], undefined, hide);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    expect(failed.stderr).toMatch(/pdfjs-dist/);
    expect(failed.stderr).toMatch(/mammoth/);
    expect(failed.stderr).toMatch(/--skip-unsupported to chunk the other 1 file/);
    const r = run(['chunk', dir, '--skip-unsupported'], undefined, hide);
    expect(r.code, r.stderr).toBe(0);
    expect(new Set(r.rows.map((c) => c.source))).toEqual(new Set([join(dir, 'handbook.md')]));
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^chunkwise: skipped 3 files .*not installed: (pdfjs-dist, mammoth|mammoth, pdfjs-dist) \(npm install/);
    expect(lines[0].match(/pdfjs-dist/g)).toHaveLength(2); // in the list and in the npm install line, once each
  });
});
