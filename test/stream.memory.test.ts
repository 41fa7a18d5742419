import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bigFile, runCliOnFile } from '../scripts/stream-big.js';
import { countWords } from '../src/engine/size/words.js';

/**
 * UTF-16 length, offset after the last non-whitespace character, and word count of a file
 * (words as word units count them: `\S+` runs, runs over 512 code units or in scripts
 * without spaces split by the module's rule), read in blocks cut at their last whitespace.
 */
async function scan(file: string): Promise<{ length: number; lastText: number; words: number }> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let length = 0;
  let lastText = 0;
  let words = 0;
  let held = '';
  const count = (piece: string, at: number): void => {
    words += countWords(piece);
    const m = /\S\s*$/.exec(piece);
    if (m) lastText = at + m.index + 1;
  };
  for await (const block of createReadStream(file, { highWaterMark: 1 << 22 })) {
    const s = held + decoder.decode(block as Buffer, { stream: true });
    const cut = s.search(/\s\S*$/) + 1; // after the last whitespace (0: none)
    count(s.slice(0, cut), length);
    length += cut;
    held = s.slice(cut);
  }
  count(held, length);
  length += held.length;
  return { length, lastText, words };
}

describe('streaming a 200 MB file through the CLI', () => {
  it('peak RSS stays under 300 MB and every word is chunked (fixed, 512/64 words)', { timeout: 300_000 }, async () => {
    const file = bigFile(200);
    const run = await runCliOnFile(file, ['--strategy', 'fixed', '--unit', 'word', '--chunk-size', '512', '--chunk-overlap', '64', '--no-token-count']);
    const { lastText, words } = await scan(file);
    console.log(`200 MB: peak RSS ${run.peakRssMb.toFixed(0)} MB, ${run.seconds.toFixed(1)} s wall, ${run.cpuSeconds.toFixed(1)} s CPU`);
    expect(run.peakRssMb).toBeLessThan(300);
    expect(run.lastEnd).toBe(lastText);
    // SPEC section 1: 1 + ⌈(n − windowSize) / stride⌉ windows over n units
    expect(run.chunks).toBe(1 + Math.ceil((words - 512) / 448));
  });
});

describe('streaming stdin with the defaults (fixed 512/64, token units)', () => {
  it('100 MB through `chunkwise chunk -`: peak RSS under 300 MB, the first chunk out before 1 % of the input is written', { timeout: 300_000 }, async () => {
    const { runCliOnStdin } = await import('../scripts/stream-stdin.js');
    const file = bigFile(100);
    const run = await runCliOnStdin(file);
    const { lastText } = await scan(file);
    console.log(`stdin 100 MB, tokens: peak RSS ${run.peakRssMb.toFixed(0)} MB, first chunk after ${(run.bytesBeforeFirstChunk / 1e6).toFixed(2)} MB, ${run.cpuSeconds.toFixed(1)} s CPU`);
    expect(run.peakRssMb).toBeLessThan(300);
    expect(run.bytesBeforeFirstChunk).toBeLessThan(run.bytes / 100);
    expect(run.lastEnd).toBe(lastText);
    expect(run.chunks).toBeGreaterThan(40_000);
  });
});
