/**
 * A Hugging Face `tokenizer.json` tokenizer (through `@huggingface/tokenizers`) with
 * what the embedders need on top: UTF-16 offsets per token, and truncation to a
 * maximum length that keeps the post-processor's special tokens and reports itself.
 * @module
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { EmbeddingError, ModelLoadError } from '../engine/errors.js';

/** Tokenizer model types `@huggingface/tokenizers` 0.2 implements. */
export const KNOWN_TOKENIZER_MODELS = ['WordPiece', 'BPE', 'Unigram'] as const;

/** The part of `@huggingface/tokenizers`' `Tokenizer` that {@link HfTokenizer.inner} declares. */
export interface HfLibraryTokenizer {
  encode(text: string, options?: { text_pair?: string | null; add_special_tokens?: boolean }): { ids: number[]; tokens: string[]; attention_mask: number[]; token_type_ids?: number[] };
  decode(ids: number[], options?: { skip_special_tokens?: boolean; clean_up_tokenization_spaces?: boolean }): string;
}

/** One encoded text. */
export interface TokenizedText {
  /** Token ids, special tokens included (length T ≤ maxLength). */
  ids: number[];
  /** Token type ids (segment ids), length T. */
  typeIds: number[];
  /** T × 2 UTF-16 [start, end) per token; special tokens are zero-width. */
  offsets: Int32Array;
  /** 1 for tokens the post-processor added ([CLS], [SEP], …), else 0. */
  special: Uint8Array;
  /** Tokens before truncation (special tokens included). */
  totalTokens: number;
  /** True if tokens were dropped to fit maxLength. */
  truncated: boolean;
}

interface Normalizerish {
  normalize(text: string): string;
}

/**
 * Wraps a parsed `tokenizer.json`.
 *
 * Offsets: `@huggingface/tokenizers` does not report them, so they are recovered by
 * alignment: the normaliser is applied code point by code point (giving a map from
 * normalised to original UTF-16 indices), and each token's surface form (WordPiece's
 * `##` prefix and SentencePiece's `▁` removed) is matched left to right in the
 * normalised text; a token that does not match (`[UNK]`, byte-level pieces) covers the
 * non-space characters up to the next token's match, never past the end of its
 * pre-tokenizer word (the tokenizer's own pre-tokenizer run over the normalised text), and
 * in WordPiece a `[UNK]` at a word's start covers that whole word (WordPiece maps an
 * unknown word to one `[UNK]`), so a run such as `[[[[` gives one span per `[`. Exact for
 * BERT-style WordPiece and Metaspace/Unigram tokenizers; best-effort (still ordered and
 * within the text) for byte-level BPE. Linear in the text's length.
 */
export class HfTokenizer {
  readonly #tok: Tokenizer;
  readonly #prefix: string | undefined;
  readonly #modelType: string;
  readonly #normalizer: Normalizerish | null;
  readonly #perCharNormalizes: boolean;
  /** Contents of the added tokens (`[CLS]`, `[UNK]`, …): split out of the text before normalisation. */
  readonly #added: Set<string>;
  /** Special tokens the post-processor puts before and after a single sequence. */
  readonly #template: { prefix: number; suffix: number } | undefined;

  /**
   * @param json the parsed `tokenizer.json`.
   * @param config the parsed `tokenizer_config.json` (optional).
   * @param source what to name in errors (a path or URL).
   * @throws {ModelLoadError} for a tokenizer the library cannot build (unknown model,
   *   normaliser, pre-tokeniser or post-processor type; a malformed file).
   */
  constructor(json: unknown, config: unknown = {}, source = 'tokenizer.json') {
    if (typeof json !== 'object' || json === null || typeof (json as { model?: unknown }).model !== 'object') {
      throw new ModelLoadError(source, 'tokenizer.json has no "model" object');
    }
    const model = (json as { model: { type?: unknown; continuing_subword_prefix?: unknown; vocab?: unknown } }).model;
    const type = model.type ?? (model.vocab && !Array.isArray(model.vocab) && 'merges' in model ? 'BPE' : undefined);
    if (typeof type !== 'string' || !(KNOWN_TOKENIZER_MODELS as readonly string[]).includes(type)) {
      throw new ModelLoadError(
        source,
        `unknown tokenizer model type ${JSON.stringify(type)} (known: ${KNOWN_TOKENIZER_MODELS.join(', ')})`,
      );
    }
    try {
      this.#tok = new Tokenizer(json as object, (config ?? {}) as object);
    } catch (cause) {
      throw new ModelLoadError(source, `the tokenizer could not be built: ${String((cause as Error)?.message ?? cause)}`);
    }
    this.#modelType = type;
    this.#prefix =
      type === 'WordPiece' ? (typeof model.continuing_subword_prefix === 'string' ? model.continuing_subword_prefix : '##') : undefined;
    this.#normalizer = (this.#tok as unknown as { normalizer: Normalizerish | null }).normalizer ?? null;
    // Per-code-point normalisation must agree with whole-text normalisation on a probe.
    const probe = 'Ab Çd  ÉF ĳ x';
    this.#perCharNormalizes = this.#normalizer === null || this.#normalizePerChar(probe).text === this.#normalizer.normalize(probe);
    this.#template = this.#findTemplate();
    const addedMap = (this.#tok as unknown as { added_tokens_map?: Map<string, unknown> }).added_tokens_map;
    this.#added = new Set(addedMap instanceof Map ? addedMap.keys() : []);
  }

  /**
   * The library's tokenizer (`@huggingface/tokenizers`' `Tokenizer`), for anything not
   * wrapped here. Typed structurally: the library's own declarations do not compile
   * under TypeScript's node16/nodenext resolution (relative imports without
   * extensions), so chunkwise's declarations do not refer to them.
   */
  get inner(): HfLibraryTokenizer {
    return this.#tok as unknown as HfLibraryTokenizer;
  }

  /** Learns how many special tokens wrap a single sequence, if that is the same for two probes. */
  #findTemplate(): { prefix: number; suffix: number } | undefined {
    const shapes = ['a', 'the fox, 42'].map((probe) => {
      const full = this.#tok.encode(probe).ids;
      const content = this.#tok.encode(probe, { add_special_tokens: false }).ids;
      const p = locate(full, content);
      return p < 0 ? undefined : { prefix: p, suffix: full.length - p - content.length };
    });
    const [a, b] = shapes;
    return a && b && a.prefix === b.prefix && a.suffix === b.suffix ? a : undefined;
  }

  /** The vocabulary's id for a token, or undefined. */
  tokenToId(token: string): number | undefined {
    return this.#tok.token_to_id(token);
  }

  /** Ids and token strings without special tokens (the text's own tokens). */
  content(text: string): { ids: number[]; tokens: string[] } {
    const e = this.#tok.encode(text, { add_special_tokens: false });
    return { ids: e.ids, tokens: e.tokens };
  }

  /** Ids without special tokens (the text's own tokens). */
  contentIds(text: string): number[] {
    return this.#tok.encode(text, { add_special_tokens: false }).ids;
  }

  #normalizePerChar(text: string): { text: string; starts: number[]; ends: number[] } {
    let out = '';
    const starts: number[] = [];
    const ends: number[] = [];
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      const len = cp > 0xffff ? 2 : 1;
      const ch = text.slice(i, i + len);
      const n = this.#normalizer ? this.#normalizer.normalize(ch) : ch;
      out += n;
      for (let k = 0; k < n.length; k++) {
        starts.push(i);
        ends.push(i + len);
      }
      i += len;
    }
    return { text: out, starts, ends };
  }

  #surface(token: string): string {
    let s = token;
    if (this.#prefix && s.startsWith(this.#prefix)) s = s.slice(this.#prefix.length);
    s = s.replace(/▁/g, ' ').replace(/^Ġ/, ' ').trim();
    return s;
  }

  /** UTF-16 offsets (T × 2) of `tokens` (content tokens only) in `text`, by alignment. */
  alignOffsets(text: string, tokens: string[]): Int32Array {
    let norm: { text: string; starts: number[]; ends: number[] };
    if (this.#perCharNormalizes) norm = this.#normalizePerChar(text);
    else {
      // Fallback: compare against the lowercased text, unit for unit.
      const lower = text.toLowerCase();
      const t = lower.length === text.length ? lower : text;
      norm = { text: t, starts: Array.from({ length: t.length }, (_, i) => i), ends: Array.from({ length: t.length }, (_, i) => i + 1) };
    }
    const nt = norm.text;
    const mapStart = (i: number) => norm.starts[i];
    const mapEnd = (i: number) => norm.ends[i];
    const surfaces = tokens.map((t) => this.#surface(t));
    const out = new Int32Array(tokens.length * 2);
    const words = this.#wordEnds(nt);
    let w = 0;
    let cur = 0;
    for (let k = 0; k < tokens.length; k++) {
      while (cur < nt.length && isWs(nt[cur])) cur++;
      const s = surfaces[k];
      const a = cur;
      let b: number;
      if (s.length === 0) {
        b = cur; // a bare "▁" or prefix: zero-width where it stands
      } else if (nt.startsWith(s, cur)) {
        b = cur + s.length;
      } else if (cur < nt.length && this.#added.has(tokens[k]) && text.startsWith(tokens[k], mapStart(cur))) {
        // an added token written in the text ("[SEP]"): matched before normalisation
        const end = mapStart(cur) + tokens[k].length;
        b = cur;
        while (b < nt.length && mapStart(b) < end) b++;
      } else {
        // the pre-tokenizer word holding cur bounds an unmatched token
        while (words && w < words.ends.length && words.ends[w] <= cur) w++;
        const inWord = words !== null && w < words.ends.length && words.starts[w] <= cur;
        const bound = inWord ? words.ends[w] : nt.length;
        if (inWord && this.#modelType === 'WordPiece' && words.starts[w] === cur) {
          b = bound;
        } else {
          const next = k + 1 < tokens.length ? surfaces[k + 1] : '';
          b = cur;
          while (b < bound && !isWs(nt[b]) && !(b > cur && next && nt.startsWith(next, b))) b++;
        }
      }
      cur = b;
      if (b > a) {
        out[2 * k] = mapStart(a);
        out[2 * k + 1] = mapEnd(b - 1);
      } else {
        const at = a < nt.length ? mapStart(a) : text.length;
        out[2 * k] = at;
        out[2 * k + 1] = at;
      }
    }
    return out;
  }

  /**
   * The pre-tokenizer's words of the normalised text `nt`, as [starts[i], ends[i]) in
   * `nt`, or null when there is no pre-tokenizer or its words are not substrings of `nt`
   * in order (byte-level pre-tokenizers); a Metaspace `▁` counts as a space.
   */
  #wordEnds(nt: string): { starts: Int32Array; ends: Int32Array } | null {
    const pre = (this.#tok as unknown as { pre_tokenizer: ((text: string) => string[]) | null }).pre_tokenizer;
    if (typeof pre !== 'function') return null;
    let list: string[];
    try {
      list = pre(nt);
    } catch {
      return null;
    }
    const starts = new Int32Array(list.length);
    const ends = new Int32Array(list.length);
    let n = 0;
    let cur = 0;
    for (const raw of list) {
      const word = raw.replace(/▁/g, ' ').trim();
      if (word.length === 0) continue;
      while (cur < nt.length && isWs(nt[cur])) cur++;
      if (!nt.startsWith(word, cur)) return null;
      starts[n] = cur;
      ends[n++] = cur += word.length;
    }
    return { starts: starts.subarray(0, n), ends: ends.subarray(0, n) };
  }

  /**
   * Encodes `text` with the post-processor's special tokens, truncating the text's own
   * tokens so the whole sequence has at most `maxLength` tokens (the special tokens are
   * kept). With `withOffsets`, aligns UTF-16 offsets (costs an extra pass).
   * @throws {EmbeddingError} if `text` is not a string.
   */
  encode(text: string, maxLength: number, withOffsets = false): TokenizedText {
    if (typeof text !== 'string') throw new EmbeddingError('Text is not a string', text);
    const full = this.#tok.encode(text, { return_token_type_ids: true });
    const fullIds = full.ids;
    const tpl = this.#template;
    let p: number;
    let cIds: number[];
    let cTokens: string[];
    if (tpl && fullIds.length >= tpl.prefix + tpl.suffix) {
      p = tpl.prefix;
      cIds = fullIds.slice(p, fullIds.length - tpl.suffix);
      cTokens = full.tokens.slice(p, fullIds.length - tpl.suffix);
    } else {
      const content = this.#tok.encode(text, { add_special_tokens: false });
      cIds = content.ids;
      cTokens = content.tokens;
      p = locate(fullIds, cIds);
    }
    if (p < 0) {
      // The special tokens could not be told apart: treat every token as the text's own.
      p = 0;
      cIds = fullIds;
      cTokens = full.tokens;
    }
    const suffix = fullIds.length - p - cIds.length;
    const typeIds = full.token_type_ids ?? new Array(fullIds.length).fill(0);
    const totalTokens = fullIds.length;
    const keep = Math.max(0, Math.min(cIds.length, maxLength - p - suffix));
    const truncated = totalTokens > maxLength;
    const ids = truncated ? [...fullIds.slice(0, p + keep), ...fullIds.slice(p + cIds.length)] : fullIds;
    const tIds = truncated ? [...typeIds.slice(0, p + keep), ...typeIds.slice(p + cIds.length)] : typeIds;
    const T = ids.length;
    const special = new Uint8Array(T);
    for (let i = 0; i < p; i++) special[i] = 1;
    for (let i = p + keep; i < T; i++) special[i] = 1;
    const offsets = new Int32Array(T * 2);
    if (withOffsets || truncated) {
      const contentOffsets = this.alignOffsets(text, cTokens);
      let end = 0;
      for (let i = 0; i < keep; i++) {
        offsets[2 * (p + i)] = contentOffsets[2 * i];
        offsets[2 * (p + i) + 1] = contentOffsets[2 * i + 1];
        end = Math.max(end, contentOffsets[2 * i + 1]);
      }
      for (let i = p + keep; i < T; i++) {
        offsets[2 * i] = end;
        offsets[2 * i + 1] = end;
      }
    }
    return { ids, typeIds: tIds, offsets, special, totalTokens, truncated };
  }

  /** The model type of `tokenizer.json` ("WordPiece", "BPE", "Unigram"). */
  get modelType(): string {
    return this.#modelType;
  }
}

const WS = /\s/u;
const isWs = (c: string) => WS.test(c);

/** Index where `part` occurs contiguously in `whole`, or −1. */
function locate(whole: number[], part: number[]): number {
  for (let p = 0; p + part.length <= whole.length; p++) {
    let ok = true;
    for (let i = 0; i < part.length && ok; i++) ok = whole[p + i] === part[i];
    if (ok) return p;
  }
  return -1;
}
