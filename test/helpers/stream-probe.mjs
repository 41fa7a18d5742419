/**
 * Streams generated text through one streaming strategy and unit in this process and
 * prints one JSON line: UTF-8 bytes read in all and before the first chunk, code units
 * streamed and the offset after the last non-whitespace one, chunks, the end of the last
 * chunk, peak RSS (MB), seconds, and the error's name and message if one was thrown. Run by test/stream.scripts.test.ts in a child process
 * per case (one case's garbage does not count against another's peak):
 *
 *   node test/helpers/stream-probe.mjs STRATEGY UNIT SCRIPT MB [ENTRY]
 *
 * SCRIPT: `cjk` (Chinese and Japanese, no spaces or line breaks, 。 and ，), `thai`
 * (Thai words without spaces, a space between phrases, no line breaks), `unspaced`
 * (base64-like: no whitespace, no punctuation), `oneline` (English prose on one line).
 * ENTRY: the module to import (default: the built package, dist/src/index.js).
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [strategy, unit, script, mb, entry = 'dist/src/index.js'] = process.argv.slice(2);
const { createChunker } = await import(pathToFileURL(resolve(entry)).href);

/** A deterministic generator of 32-bit numbers (xorshift). */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const HAN = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7) % 0x5000))).join(''); // common and rarer ideographs
const KANA = Array.from({ length: 0x53 }, (_, i) => String.fromCharCode(0x3041 + i)).join('') + Array.from({ length: 0x56 }, (_, i) => String.fromCharCode(0x30a1 + i)).join('');
const THAI_C = 'กขคงจฉชซญดตถทธนบปผพฟภมยรลวศษสหอฮ';
const THAI_V = ['ะ', 'า', 'ิ', 'ี', 'ึ', 'ื', 'ุ', 'ู', 'ำ', ''];
const THAI_PRE = ['เ', 'แ', 'โ', 'ไ', 'ใ', ''];
const THAI_TONE = ['่', '้', '๊', '๋', '', '', ''];
const WORDS = 'the of and to in is for on that by with as at from this it be are was an or have not but which one all their there can more when will about if so out up into than them some then these two may other time its only new use could our first any like over such make most after also well way even many much because those through where after before between each under while along since'.split(' ');
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const pick = (r, s) => s[Math.floor(r() * s.length)];

/** About `n` code units of the script's text. */
function generate(r, n) {
  let s = '';
  if (script === 'cjk') {
    while (s.length < n) {
      const len = 8 + Math.floor(r() * 40);
      for (let i = 0; i < len; i++) s += r() < 0.7 ? pick(r, HAN) : pick(r, KANA);
      s += r() < 0.6 ? '。' : '，';
    }
  } else if (script === 'thai') {
    while (s.length < n) {
      const words = 3 + Math.floor(r() * 12);
      for (let w = 0; w < words; w++) {
        const syll = 1 + Math.floor(r() * 3);
        for (let k = 0; k < syll; k++) s += pick(r, THAI_PRE) + pick(r, THAI_C) + pick(r, THAI_V) + pick(r, THAI_TONE);
      }
      s += ' ';
    }
  } else if (script === 'unspaced') {
    while (s.length < n) s += pick(r, B64);
  } else if (script === 'oneline') {
    while (s.length < n) {
      const len = 6 + Math.floor(r() * 20);
      let sentence = '';
      for (let i = 0; i < len; i++) sentence += (i ? ' ' : '') + pick(r, WORDS);
      s += sentence[0].toUpperCase() + sentence.slice(1) + '. ';
    }
  } else throw new Error(`unknown script ${script}`);
  return s;
}

const total = Number(mb) * 1e6;
let read = 0;
let firstAt = -1;
/** Code units streamed, and the offset after the last non-whitespace one. */
let length = 0;
let lastText = 0;
const encoder = new TextEncoder();
async function* source() {
  const r = rng(0x9e3779b9);
  while (read < total) {
    const piece = generate(r, 1 << 14);
    read += encoder.encode(piece).length;
    const trimmed = piece.trimEnd().length;
    if (trimmed > 0) lastText = length + trimmed;
    length += piece.length;
    yield piece;
  }
}

const options = { unit, ...(unit === 'token' ? {} : { countTokens: false }) };
const chunker = createChunker(strategy, options);
const started = performance.now();
let chunks = 0;
let lastEnd = 0;
let error;
try {
  for await (const c of chunker.chunkStream(source())) {
    if (firstAt < 0) firstAt = read;
    chunks++;
    lastEnd = c.end;
  }
} catch (e) {
  error = `${e?.name}: ${e?.message}`;
}
const u = process.resourceUsage();
process.stdout.write(
  JSON.stringify({ strategy, unit, script, read, length, firstAt, chunks, lastEnd, lastText, peakRssMb: u.maxRSS / 1024, seconds: (performance.now() - started) / 1000, error }) + '\n',
);
