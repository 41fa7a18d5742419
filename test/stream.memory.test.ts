import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bigFile, runCliOnFile } from '../scripts/stream-big.js';

/** UTF-16 length, offset after the last non-whitespace character, and word count of a file, read in blocks. */
async function scan(file: string): Promise<{ length: number; lastText: number; words: number }> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let length = 0;
  let lastText = 0;
  let words = 0;
  let inWord = false;
  for await (const block of createReadStream(file, { highWaterMark: 1 << 22 })) {
    const s = decoder.decode(block as Buffer, { stream: true });
    for (const m of s.matchAll(/\S+/g)) {
      if (!(m.index === 0 && inWord)) words++;
      lastText = length + m.index + m[0].length;
    }
    if (s.length > 0) inWord = /\S$/.test(s);
    length += s.length;
  }
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
