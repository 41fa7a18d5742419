/**
 * Writes chunk records (JSON strings) as JSONL or as one JSON array, so the single-process
 * and the worker paths of `chunkwise chunk` write the same bytes. Node only.
 * @module
 */
import type { Output } from './io.js';

/** Formats records as JSONL (one per line) or a JSON array (`[`, records one per line, `]`). */
export class RecordWriter {
  #first = true;
  constructor(readonly output: Output, readonly format: 'jsonl' | 'json') {}

  /** Writes the opening `[` of a JSON array. */
  async begin(): Promise<void> {
    if (this.format === 'json') await this.output.write('[');
  }

  /** Writes records in order. */
  async write(records: string[]): Promise<void> {
    if (records.length === 0) return;
    let text: string;
    if (this.format === 'json') {
      text = (this.#first ? '\n' : ',\n') + records.join(',\n');
      this.#first = false;
    } else text = records.join('\n') + '\n';
    await this.output.write(text);
  }

  /** Writes the closing `]` of a JSON array. */
  async end(): Promise<void> {
    if (this.format === 'json') await this.output.write(this.#first ? ']\n' : '\n]\n');
  }
}
