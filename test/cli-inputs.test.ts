/**
 * The CLI's inputs and progress, in process: binary files told from text (refused when
 * named, skipped by a walk or glob), and the progress bar driven by bytes read, drawn on a
 * fake terminal stream. The same through the built CLI (exit codes, stderr, a real
 * terminal under `script`) is in cli.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binaryReason, expandInputs, SNIFF_BYTES } from '../src/apps/cli/inputs.js';
import { createProgress, UnreadableFileError } from '../src/apps/cli/io.js';

const dir = mkdtempSync(join(tmpdir(), 'chunkwise-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first bytes of a PNG file: signature, then the IHDR chunk's length (0x0000000D). */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

describe('binaryReason', () => {
  it('a NUL byte makes a file binary: PNG, UTF-16 text', () => {
    expect(binaryReason(PNG)).toBe('a NUL byte at offset 8');
    expect(binaryReason(new Uint8Array(Buffer.from('hi', 'utf16le')))).toBe('a NUL byte at offset 1');
  });

  it('mostly invalid UTF-8 is binary; Latin-1 accents, a written U+FFFD and a sequence cut by the sniff are text', () => {
    // bytes 0x80–0xff without NUL: every one an invalid sequence start or a stray continuation
    const noise = Uint8Array.from({ length: 1000 }, (_, i) => 0x80 + ((i * 37) % 128));
    expect(binaryReason(noise)).toMatch(/^\d+% of its first 1000 bytes are not UTF-8$/);
    const latin1 = new Uint8Array(Buffer.from('Café crème brûlée, déjà vu à la française. '.repeat(20), 'latin1'));
    expect(binaryReason(latin1)).toBeUndefined(); // 19 % of its bytes are accents
    expect(binaryReason(new Uint8Array(Buffer.from('a \ufffd replacement character, written on purpose'.repeat(3))))).toBeUndefined();
    const cut = new Uint8Array(Buffer.from('ab€'.repeat(10))).subarray(0, 29); // ends inside '€'
    expect(binaryReason(cut, false)).toBeUndefined();
    expect(binaryReason(new Uint8Array(0))).toBeUndefined();
  });
});

describe('expandInputs with binary files', () => {
  writeFileSync(join(dir, 'img.png'), PNG);
  writeFileSync(join(dir, 'notes.txt'), 'plain text\n');
  writeFileSync(join(dir, 'fake.txt'), PNG); // binary under a text extension
  // a file whose binary part starts past the sniffed bytes is text as far as the sniff goes
  writeFileSync(join(dir, 'late.txt'), Buffer.concat([Buffer.from('x'.repeat(SNIFF_BYTES)), Buffer.from(PNG)]));

  it('a binary file named by itself is an UnreadableFileError naming it; a text file passes', async () => {
    const skipped: string[] = [];
    const binary = { skip: (f: string, r: string) => skipped.push(`${f}: ${r}`) };
    await expect(expandInputs([join(dir, 'img.png')], ['.txt'], binary)).rejects.toThrow(UnreadableFileError);
    await expect(expandInputs([join(dir, 'img.png')], ['.txt'], binary)).rejects.toThrow(`cannot read ${join(dir, 'img.png')}: a binary file, not text (a NUL byte at offset 8)`);
    expect(await expandInputs([join(dir, 'notes.txt')], ['.txt'], binary)).toEqual([join(dir, 'notes.txt')]);
    // without the option (other commands) nothing is sniffed
    expect(await expandInputs([join(dir, 'img.png')])).toEqual([join(dir, 'img.png')]);
    expect(skipped).toEqual([]);
  });

  it('a walk or a glob skips binary files and reports each; isText leaves a file to another reader', async () => {
    const skipped: string[] = [];
    const binary = { skip: (f: string, r: string) => skipped.push(`${f}: ${r}`) };
    expect(await expandInputs([dir], ['.txt', '.png'], binary)).toEqual([join(dir, 'late.txt'), join(dir, 'notes.txt')]);
    expect(skipped).toEqual([`${join(dir, 'fake.txt')}: a NUL byte at offset 8`, `${join(dir, 'img.png')}: a NUL byte at offset 8`]);
    skipped.length = 0;
    expect(await expandInputs([join(dir, '*.png')], ['.txt'], binary)).toEqual([]);
    expect(skipped).toHaveLength(1);
    const loaders = { ...binary, isText: (f: string) => !f.endsWith('.png') };
    expect(await expandInputs([join(dir, 'img.png')], ['.txt'], loaders)).toEqual([join(dir, 'img.png')]);
  });

  it('a folder of only binary files is an error saying so', async () => {
    const only = mkdtempSync(join(dir, 'bin-'));
    writeFileSync(join(only, 'a.txt'), PNG);
    await expect(expandInputs([only], ['.txt'], { skip: () => {} })).rejects.toThrow(/no \.txt text files in directory \(1 binary skipped\)/);
  });
});

/** A terminal stream that keeps what is written to it. */
function fakeTerminal() {
  const frames: string[] = [];
  return { frames, stream: { isTTY: true, columns: 120, write: (s: string) => (frames.push(s), true), on: () => {}, once: () => {}, removeListener: () => {} } };
}

/** Waits for the bar's next redraw (cli-progress draws on a 100 ms timer). */
const redraw = () => new Promise((resolve) => setTimeout(resolve, 130));

/** What the bar showed, escape sequences removed. */
const shown = (frames: string[]) => frames.map((f) => f.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, '')).filter((f) => f.trim().length > 0);

describe('progress by bytes read', () => {
  it('one large file moves as it is read, before the file is done', async () => {
    const t = fakeTerminal();
    const total = 50 * 1024 * 1024;
    const p = createProgress(total, 1, true, { stream: t.stream as never });
    const percents: number[] = [];
    for (let k = 1; k <= 4; k++) {
      p.read!(total / 5, 'big.md');
      await redraw();
      const last = shown(t.frames).at(-1) ?? '';
      percents.push(Number(/(\d+)%/.exec(last)?.[1]));
      expect(last).toContain('big.md');
      expect(last).toContain('0/1 files');
    }
    expect(percents).toEqual([20, 40, 60, 80]);
    p.advance(total, 'big.md');
    await redraw();
    expect(shown(t.frames).at(-1)).toMatch(/100% \| 1\/1 files \| 52\.4 MB/);
    p.stop();
  });

  it('stdin (no total): MB read and MB/s, no percentage', async () => {
    const t = fakeTerminal();
    const p = createProgress(0, 1, true, { stream: t.stream as never, unknownTotal: true });
    p.read!(3_000_000, '-');
    await redraw();
    const last = shown(t.frames).at(-1)!;
    expect(last).toMatch(/^chunking 3\.0 MB read \| [\d.]+ MB\/s \| 0\/1 files \| -/);
    expect(last).not.toContain('%');
    p.advance(0, '-');
    await redraw();
    expect(shown(t.frames).at(-1)).toMatch(/^chunking 3\.0 MB read .*1\/1 files/);
    p.stop();
  });

  it('many files: each counts its size once, whether it was read in blocks or not', async () => {
    const t = fakeTerminal();
    const p = createProgress(400, 4, true, { stream: t.stream as never, verb: 'embedding' });
    p.read!(60, 'a');
    p.read!(40, 'a');
    p.advance(100, 'a');
    p.advance(100, 'b'); // no read() calls: the worker path
    await redraw();
    expect(shown(t.frames).at(-1)).toMatch(/^embedding \[.*\] 50% \| 2\/4 files/);
    p.stop();
    // short work and disabled bars draw nothing
    const quiet = fakeTerminal();
    createProgress(1000, 1, true, { stream: quiet.stream as never }).read!(1000);
    createProgress(1 << 30, 9, false, { stream: quiet.stream as never }).read!(1000);
    expect(quiet.frames).toEqual([]);
  });
});
