/**
 * Synthetic evaluation questions from a corpus through an OpenAI-compatible chat endpoint
 * (`POST {baseURL}/chat/completions`), after the method of Chroma's `chunking_evaluation`
 * (`SyntheticEvaluation`, exact excerpts): for each question, a random window of the
 * corpus (4,000 characters) is sent with the questions already asked of that corpus (up to
 * 20); the model answers with JSON `{ "question", "references": [excerpt…] }`; each
 * excerpt is located in the corpus (exactly, else with any run of whitespace matching any
 * other), and an answer whose excerpts cannot all be located, that has none or more than
 * 5, or repeats a question, is discarded and asked again. The result is in the questions
 * CSV format ({@link questionsCsv}). Core module: no Node built-ins.
 * @module
 */
import { ChunkwiseError, InvalidOptionError } from '../engine/errors.js';
import { mulberry32 } from '../engine/random.js';
import { withBackoff, type RetryEvent, type TransientFailure } from '../engine/retry.js';
import { RETRY_STATUS, retryAfterMs, serverMessage } from '../embedders/openai.js';
import type { Corpus, EvalQuestion, Reference } from './questions.js';

/** Options of {@link generateQuestions}. */
export interface QuestionGenerationOptions {
  /** Chat model name sent in each request. Required. */
  model: string;
  /** API base URL up to `/v1`, e.g. `http://localhost:11434/v1`. Required (no default host: nothing is sent anywhere unasked). */
  baseURL: string;
  /** Bearer token, if the endpoint needs one. */
  apiKey?: string;
  /** Questions per corpus. Default 5. */
  perCorpus?: number;
  /** Requests per question before giving up on it. Default 5. */
  attempts?: number;
  /** Characters of the corpus window sent per request. Default 4000. */
  windowChars?: number;
  /** Seed of the window positions (mulberry32). Default 1. */
  seed?: number;
  /** Retries of one request after 429, 5xx or a network error. Default 3. */
  maxRetries?: number;
  /** First backoff delay in ms. Default 500. */
  initialDelayMs?: number;
  /** The fetch to use. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Called after each question is kept or given up on. */
  onQuestion?: (event: { corpusId: string; done: number; total: number; kept: boolean; reason?: string }) => void;
  onRetry?: (event: RetryEvent) => void;
}

/** A request to the chat endpoint failed for good, or its answers were unusable. */
export class QuestionGenerationError extends ChunkwiseError {
  constructor(message: string, value?: unknown) {
    super(value === undefined ? message : `${message}: ${JSON.stringify(value)}`);
    this.name = 'QuestionGenerationError';
  }
}

const SYSTEM_PROMPT = [
  'You write one evaluation question about a text and quote the passages that answer it.',
  'Answer with a JSON object and nothing else: {"question": "...", "references": ["...", "..."]}.',
  '- The question must be answerable from the text alone, specific, and about one topic.',
  '- "references" lists every passage of the text that answers it (1 to 5), each copied exactly, character for character, preferably whole sentences.',
  '- Do not repeat or rephrase a question listed as already asked.',
].join('\n');

function userPrompt(window: string, asked: readonly string[]): string {
  return `Text:\n"""\n${window}\n"""\n\nQuestions already asked (do not repeat):\n${asked.length ? asked.join('\n') : '(none)'}`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where `excerpt` lies in `text`: its first exact occurrence at or after `from` (else
 * anywhere), else a match in which every run of whitespace in the excerpt matches any run
 * of whitespace in the text. Leading and trailing whitespace of the excerpt is ignored.
 * @returns the range and the text there, or undefined when it is not found.
 */
export function locateExcerpt(text: string, excerpt: string, from = 0): Reference | undefined {
  const needle = excerpt.trim();
  if (!needle) return undefined;
  let start = text.indexOf(needle, from);
  if (start < 0) start = text.indexOf(needle);
  if (start >= 0) return { start, end: start + needle.length, content: needle };
  const pattern = new RegExp(needle.split(/\s+/).map(escapeRegExp).join('\\s+'), 'g');
  pattern.lastIndex = from;
  const m = pattern.exec(text) ?? ((pattern.lastIndex = 0), pattern.exec(text));
  return m ? { start: m.index, end: m.index + m[0].length, content: m[0] } : undefined;
}

/** The JSON object of a model's answer (a Markdown code fence around it is allowed). */
function parseAnswer(content: string): { question: string; references: string[] } {
  const body = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error(`the answer is not JSON: ${JSON.stringify(content.slice(0, 80))}`);
  }
  const o = json as { question?: unknown; references?: unknown };
  if (typeof o?.question !== 'string' || !o.question.trim()) throw new Error('the answer has no question');
  if (!Array.isArray(o.references) || !o.references.every((r) => typeof r === 'string')) throw new Error('the answer\'s references are not a list of strings');
  return { question: o.question.trim(), references: o.references as string[] };
}

class RetryableResponse extends Error {
  constructor(readonly failure: TransientFailure) {
    super(failure.reason);
  }
}

/** One chat completion: the content of the first choice. */
async function complete(o: QuestionGenerationOptions, messages: { role: string; content: string }[]): Promise<string> {
  const url = `${o.baseURL.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  const body = JSON.stringify({ model: o.model, messages, temperature: 1, max_tokens: 600 });
  const f = o.fetch ?? globalThis.fetch;
  return withBackoff(
    async () => {
      const response = await f(url, { method: 'POST', headers, body });
      const raw = await response.text();
      if (!response.ok) {
        const reason = `HTTP ${response.status}${serverMessage(raw)}`;
        if (RETRY_STATUS.has(response.status)) throw new RetryableResponse({ status: response.status, reason, waitMs: retryAfterMs(response.headers) });
        throw new QuestionGenerationError(`${url} refused the request: ${reason}`);
      }
      let json: { choices?: { message?: { content?: unknown } }[] };
      try {
        json = JSON.parse(raw);
      } catch {
        throw new QuestionGenerationError(`${url} answered with something that is not JSON`, raw.slice(0, 80));
      }
      const content = json?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new QuestionGenerationError(`${url} answered without choices[0].message.content`);
      return content;
    },
    (error) => {
      if (error instanceof RetryableResponse) return error.failure;
      if (error instanceof QuestionGenerationError) return undefined;
      return { reason: `network error: ${(error as Error)?.message ?? String(error)}` };
    },
    { maxRetries: o.maxRetries ?? 3, initialDelayMs: o.initialDelayMs ?? 500, maxDelayMs: 30_000, onRetry: o.onRetry },
    (failure, attempts) => new QuestionGenerationError(`${url} failed after ${attempts} attempt(s): ${failure.reason}`),
  );
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1) throw new InvalidOptionError(name, value, 'an integer ≥ 1');
  return v;
}

/**
 * Generates `perCorpus` questions for each corpus (see the module's description of the
 * method). A question whose `attempts` answers were all unusable is left out (reported
 * through `onQuestion`).
 * @returns the questions, corpus by corpus; references in the order given, offsets in UTF-16 code units.
 * @throws {InvalidOptionError} for a missing model or base URL or bad counts.
 * @throws {QuestionGenerationError} when the endpoint refuses a request or keeps failing.
 */
export async function generateQuestions(corpora: readonly Corpus[], options: QuestionGenerationOptions): Promise<EvalQuestion[]> {
  if (typeof options?.model !== 'string' || !options.model) throw new InvalidOptionError('model', options?.model, 'a chat model name');
  if (typeof options.baseURL !== 'string' || !/^https?:\/\//.test(options.baseURL)) throw new InvalidOptionError('baseURL', options.baseURL, 'an http(s) URL up to /v1');
  const perCorpus = positive('perCorpus', options.perCorpus, 5);
  const attempts = positive('attempts', options.attempts, 5);
  const windowChars = positive('windowChars', options.windowChars, 4000);
  const random = mulberry32(options.seed ?? 1);
  const out: EvalQuestion[] = [];
  let done = 0;
  const total = perCorpus * corpora.length;
  for (const corpus of corpora) {
    const asked: string[] = [];
    for (let q = 0; q < perCorpus; q++) {
      let reason = '';
      let kept = false;
      for (let a = 0; a < attempts && !kept; a++) {
        const start = corpus.text.length > windowChars ? Math.floor(random() * (corpus.text.length - windowChars + 1)) : 0;
        const window = corpus.text.slice(start, start + windowChars);
        const recent = asked.length > 20 ? asked.slice(-20) : asked;
        const content = await complete(options, [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: userPrompt(window, recent) },
        ]);
        try {
          const answer = parseAnswer(content);
          if (answer.references.length === 0 || answer.references.length > 5) throw new Error(`${answer.references.length} references (1 to 5 wanted)`);
          if (asked.some((x) => x.toLowerCase() === answer.question.toLowerCase())) throw new Error('a repeated question');
          const references = answer.references.map((r) => {
            const found = locateExcerpt(corpus.text, r, start);
            if (!found) throw new Error(`an excerpt not in the corpus: ${JSON.stringify(r.slice(0, 60))}`);
            return found;
          });
          asked.push(answer.question);
          out.push({ question: answer.question, corpusId: corpus.id, references });
          kept = true;
        } catch (error) {
          reason = (error as Error).message;
        }
      }
      options.onQuestion?.({ corpusId: corpus.id, done: ++done, total, kept, reason: kept ? undefined : reason });
    }
  }
  return out;
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Questions as a CSV in Chroma's format: `question,references,corpus_id`, references as JSON `{content, start_index, end_index}`. */
export function questionsCsv(questions: readonly EvalQuestion[]): string {
  const lines = ['question,references,corpus_id'];
  for (const q of questions) {
    const refs = JSON.stringify(q.references.map((r) => ({ content: r.content, start_index: r.start, end_index: r.end })));
    lines.push(`${csvField(q.question)},${csvField(refs)},${csvField(q.corpusId)}`);
  }
  return lines.join('\n') + '\n';
}
