/** Helpers shared by the streaming tests: collecting chunks and cutting text into pieces. */
import type { Chunk } from '../../src/index.js';

/** All chunks an async iterable yields, in order. */
export async function collect(it: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const c of it) out.push(c);
  return out;
}

/** Splits `text` at the given cut positions (any UTF-16 index, so inside pairs and CRLF too). */
export function splitAt(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let prev = 0;
  for (const c of at) {
    pieces.push(text.slice(prev, c)); // empty pieces included on purpose
    prev = c;
  }
  pieces.push(text.slice(prev));
  return pieces;
}

/** A web ReadableStream that yields the pieces one by one. */
export function webStream(pieces: string[]): ReadableStream<string> {
  let i = 0;
  return new ReadableStream<string>({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]);
      else controller.close();
    },
  });
}

/** `text` in 4096-code-unit pieces. */
export function fourKiB(text: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 4096) pieces.push(text.slice(i, i + 4096));
  return pieces;
}

/**
 * Streams `text` in 4,096-code-unit pieces through `chunkStream` and returns the chunks
 * and how many code units had been read when the first chunk came out (−1: none).
 */
export async function streamReading(text: string, chunkStream: (source: AsyncIterable<string>) => AsyncIterable<Chunk>): Promise<{ chunks: Chunk[]; firstAt: number }> {
  let read = 0;
  let firstAt = -1;
  const chunks: Chunk[] = [];
  async function* pieces(): AsyncGenerator<string> {
    for (let i = 0; i < text.length; i += 4096) {
      read = Math.min(text.length, i + 4096);
      yield text.slice(i, i + 4096);
    }
  }
  for await (const c of chunkStream(pieces())) {
    if (firstAt < 0) firstAt = read;
    chunks.push(c);
  }
  return { chunks, firstAt };
}

/** `n` code units of Chinese on one line, a 。 every 23 characters. */
export function oneLineChinese(n: number): string {
  return Array.from({ length: n }, (_, i) => (i % 23 === 22 ? '。' : String.fromCharCode(0x4e00 + ((i * 7919) % 5000)))).join('');
}
