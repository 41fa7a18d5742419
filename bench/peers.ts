/**
 * Peer chunkers for the evaluation and benchmarks (dev-only: these libraries are
 * devDependencies, and nothing under src/ imports this file):
 * - @langchain/textsplitters `RecursiveCharacterTextSplitter` (default separators
 *   `\n\n`, `\n`, ` `, `""`; length in cl100k_base tokens through `lengthFunction`),
 * - @langchain/textsplitters `TokenTextSplitter` (cl100k_base; its `tokenizer` field is set
 *   to js-tiktoken's `Tiktoken(cl100k_base)`, because by default it fetches the rank table
 *   from the network),
 * - @chonkiejs/core `RecursiveChunker` with a cl100k_base tokenizer (it has no overlap).
 *
 * Peers return texts without offsets (chonkie returns offsets; they are checked, and
 * used only where `corpus.slice(start, end) === text`). {@link mapToOffsets} maps texts
 * back to offsets by sequential search and counts where that is ambiguous or fails.
 * @module
 */
import { RecursiveChunker } from '@chonkiejs/core';
import { RecursiveCharacterTextSplitter, TokenTextSplitter } from '@langchain/textsplitters';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import type { Corpus, IndexedSpan } from '../src/evaluation/index.js';
import { getTokenizer } from '../src/engine/size/tokens.js';

/** What mapping texts back to offsets found. */
export interface OffsetMapping {
  spans: IndexedSpan[];
  /** Chunks whose offsets came from the library and matched the text (chonkie). */
  fromLibrary: number;
  /** Chunks found by exact search from the previous chunk's start. */
  exact: number;
  /**
   * Chunks whose text also occurs again later in the corpus after the place chosen: a
   * search not anchored at the previous chunk could have put them elsewhere.
   */
  ambiguous: number;
  /** Chunks found only after trimming U+FFFD (a token split inside a character) and whitespace at their ends. */
  repaired: number;
  /** Chunks found only by searching from the corpus start (out of order). */
  outOfOrder: number;
  /** Chunks not found at all (left out of the index). */
  notFound: number;
}

/**
 * Maps chunk texts back to UTF-16 offsets in `corpus` (Chroma's evaluation does the
 * same with its "rigorous document search"):
 * 1. search `text` from just after the previous chunk's start (chunks come in document
 *    order, may overlap the previous one, and each starts after the previous one's start;
 *    searching from the previous start itself would put a chunk equal to the previous
 *    one on top of it), take the first occurrence;
 * 2. if absent, strip U+FFFD and whitespace at both ends (a token-level splitter can
 *    decode half a character) and search that from the previous start (`repaired`);
 * 3. if still absent, search from the corpus start (`outOfOrder`); else `notFound` and
 *    the chunk is left out.
 * A chunk is counted `ambiguous` when its text occurs again after the chosen place.
 * Given `hint` offsets (chonkie) that match the text exactly, they are taken as is.
 */
export function mapToOffsets(corpus: Corpus, texts: readonly string[], hints?: readonly { start: number; end: number }[]): OffsetMapping {
  const m: OffsetMapping = { spans: [], fromLibrary: 0, exact: 0, ambiguous: 0, repaired: 0, outOfOrder: 0, notFound: 0 };
  const text = corpus.text;
  let from = 0; // the previous chunk's start + 1: the next chunk starts after it
  texts.forEach((raw, i) => {
    const hint = hints?.[i];
    if (hint && text.slice(hint.start, hint.end) === raw && raw.length > 0) {
      m.fromLibrary++;
      m.spans.push({ corpusId: corpus.id, start: hint.start, end: hint.end, text: raw });
      from = hint.start + 1;
      return;
    }
    let needle = raw;
    let p = needle ? text.indexOf(needle, from) : -1;
    if (p >= 0) m.exact++;
    else {
      needle = raw.replace(/^[\uFFFD\s]+|[\uFFFD\s]+$/g, '');
      p = needle ? text.indexOf(needle, from) : -1;
      if (p >= 0) m.repaired++;
      else {
        p = needle ? text.indexOf(needle) : -1;
        if (p >= 0) m.outOfOrder++;
        else {
          m.notFound++;
          return;
        }
      }
    }
    if (text.indexOf(needle, p + 1) >= 0) m.ambiguous++;
    m.spans.push({ corpusId: corpus.id, start: p, end: p + needle.length, text: needle });
    from = p + 1;
  });
  return m;
}

/** A peer: a name, sizes, and a function from a corpus text to chunk texts (and maybe offsets). */
export interface Peer {
  /** Library and class, e.g. `langchain RecursiveCharacterTextSplitter`. */
  name: string;
  size: number;
  overlap: number;
  split(text: string): Promise<{ texts: string[]; hints?: { start: number; end: number }[] }>;
}

const countTokens = (t: string) => getTokenizer('cl100k_base').count(t);

/** LangChain's RecursiveCharacterTextSplitter measuring cl100k_base tokens. */
export function langchainRecursive(size: number, overlap: number): Peer {
  const splitter = new RecursiveCharacterTextSplitter({ chunkSize: size, chunkOverlap: overlap, lengthFunction: countTokens });
  return { name: 'langchain RecursiveCharacterTextSplitter', size, overlap, split: async (t) => ({ texts: await splitter.splitText(t) }) };
}

/** LangChain's TokenTextSplitter over cl100k_base, with a local rank table (no network). */
export function langchainToken(size: number, overlap: number): Peer {
  const splitter = new TokenTextSplitter({ chunkSize: size, chunkOverlap: overlap, encodingName: 'cl100k_base', disallowedSpecial: [] });
  (splitter as unknown as { tokenizer: Tiktoken }).tokenizer = new Tiktoken(cl100k);
  return { name: 'langchain TokenTextSplitter', size, overlap, split: async (t) => ({ texts: await splitter.splitText(t) }) };
}

/** A chonkie tokenizer over js-tiktoken cl100k_base (chonkie's default counts characters). */
function chonkieCl100k() {
  const enc = new Tiktoken(cl100k);
  return {
    countTokens: (t: string) => enc.encode(t, [], []).length,
    encode: (t: string) => enc.encode(t, [], []),
    decode: (ids: number[]) => enc.decode(ids),
    decodeBatch: (batch: number[][]) => batch.map((ids) => enc.decode(ids)),
  };
}

/** @chonkiejs/core RecursiveChunker measuring cl100k_base tokens (no overlap: overlap must be 0). */
export async function chonkieRecursive(size: number): Promise<Peer> {
  const chunker = await RecursiveChunker.create({ chunkSize: size, tokenizer: chonkieCl100k() as never });
  return {
    name: '@chonkiejs/core RecursiveChunker',
    size,
    overlap: 0,
    split: async (t) => {
      const chunks = await chunker.chunk(t);
      return { texts: chunks.map((c) => c.text), hints: chunks.map((c) => ({ start: c.startIndex, end: c.endIndex })) };
    },
  };
}

/** Chunks every corpus with a peer and maps the texts to offsets; mapping counts are summed over corpora. */
export async function peerSpans(peer: Peer, corpora: readonly Corpus[]): Promise<OffsetMapping> {
  const total: OffsetMapping = { spans: [], fromLibrary: 0, exact: 0, ambiguous: 0, repaired: 0, outOfOrder: 0, notFound: 0 };
  for (const corpus of corpora) {
    const { texts, hints } = await peer.split(corpus.text);
    const m = mapToOffsets(corpus, texts, hints);
    total.spans.push(...m.spans);
    total.fromLibrary += m.fromLibrary;
    total.exact += m.exact;
    total.ambiguous += m.ambiguous;
    total.repaired += m.repaired;
    total.outOfOrder += m.outOfOrder;
    total.notFound += m.notFound;
  }
  return total;
}
