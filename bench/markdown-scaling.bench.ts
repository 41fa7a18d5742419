/**
 * Scaling of MarkdownChunker on the pathological inputs of issue 16 (and more): each kind
 * at n, 2n and 4n code units; CPU time per call (best of 5, after one warm-up run), its
 * growth per doubling, and peak RSS of a fresh process chunking the input (memory: the
 * input, the blocks and the chunks, all linear). Linear time shows as ×2 per doubling.
 * Run: npx tsx bench/markdown-scaling.bench.ts (or `npm run bench -- markdown-scaling`)
 * @module
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MarkdownChunker } from '../src/index.js';

/** The inputs, each as a function of its size in code units. */
export const KINDS: Record<string, (n: number) => string> = {
  'one paragraph on one line': (n) => 'word '.repeat(n / 5),
  '`a\\n` lines (one paragraph)': (n) => 'a\n'.repeat(n / 2),
  'nested lists (depth √n; 500 deep = 255 KB)': (n) => Array.from({ length: Math.round(Math.sqrt(n)) }, (_, i) => '  '.repeat(i) + '- item').join('\n'),
  'block quotes n deep on one line': (n) => '>'.repeat(n) + ' a',
  'lines of 1000-deep block quotes': (n) => ('>'.repeat(1000) + ' a\n').repeat(Math.round(n / 1003)),
  'a long heading of unclosed links `[a](b`': (n) => '# ' + '[a](b'.repeat(n / 5) + '\n\ntext',
  'a long heading of `*a _b`': (n) => '# ' + '*a _b '.repeat(n / 6) + '\n\ntext',
  'long table rows': (n) => '| a | b |\n|---|---|\n' + ('| ' + 'x '.repeat(50) + '| y |\n').repeat(Math.round(n / 110)),
  'unclosed fences': (n) => '```\n'.repeat(n / 4),
  'sections with unresolved `[x]`': (n) => '# h [x]\n\ntext\n\n'.repeat(n / 16),
};

const here = fileURLToPath(import.meta.url);

/** CPU time of one call (µs), best of 5 after a warm-up. */
function cpu(chunker: MarkdownChunker, text: string): number {
  chunker.chunk(text);
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const before = process.cpuUsage();
    chunker.chunk(text);
    const used = process.cpuUsage(before);
    best = Math.min(best, used.user + used.system);
  }
  return best;
}

/** Peak RSS (MB) of a fresh process that builds kind `kind` at size `n` and chunks it once. */
function peakRss(kind: string, n: number, unit: string): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', here, '--child', kind, String(n), unit], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return Number(out.trim()) / 1024;
}

/** Runs the scaling benchmark; returns Markdown. */
export async function runMarkdownScalingBench(): Promise<string> {
  const base = 256 * 1024;
  const sizes = [base, 2 * base, 4 * base];
  const load = os.loadavg()[0];
  const lines: string[] = [];
  for (const unit of ['char', 'token'] as const) {
    const chunker = new MarkdownChunker({ unit, chunkSize: unit === 'char' ? 1000 : 256, countTokens: false });
    lines.push(
      `**${unit} units** (chunkSize ${unit === 'char' ? 1000 : 256}): CPU ms at 256 KiB / 512 KiB / 1 MiB, growth per doubling, peak RSS (MB) of a fresh process at the same sizes`,
      '',
      '| input | ms | × per doubling | peak RSS MB |',
      '|---|---:|---:|---:|',
    );
    for (const [name, make] of Object.entries(KINDS)) {
      const ms = sizes.map((n) => cpu(chunker, make(n)) / 1000);
      const growth = ms.slice(1).map((t, i) => (t / ms[i]).toFixed(2));
      const rss = sizes.map((n) => peakRss(name, n, unit).toFixed(0));
      lines.push(`| ${name} | ${ms.map((t) => t.toFixed(1)).join(' / ')} | ${growth.join(', ')} | ${rss.join(' / ')} |`);
    }
    lines.push('');
  }
  // the 10 MB single line and 10k-deep quotes of the issue, once each
  const big = KINDS['one paragraph on one line'](10_000_000);
  const chunker = new MarkdownChunker({ unit: 'char', chunkSize: 1000, countTokens: false });
  const t10 = cpu(chunker, big) / 1000;
  const t5 = cpu(chunker, KINDS['one paragraph on one line'](5_000_000)) / 1000;
  const deep = cpu(chunker, KINDS['block quotes n deep on one line'](10_000)) / 1000;
  lines.push(
    `10 MB single line (char 1000): ${t10.toFixed(0)} ms (5 MB: ${t5.toFixed(0)} ms, ×${(t10 / t5).toFixed(2)}), peak RSS ${peakRss('one paragraph on one line', 10_000_000, 'char').toFixed(0)} MB; ` +
      `block quotes 10,000 deep: ${deep.toFixed(1)} ms.`,
  );
  return [`Load average ${load.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end (CPU time, best of 5).`, '', ...lines].join('\n');
}

if (process.argv[2] === '--child') {
  const [, , , kind, n, unit] = process.argv;
  const text = KINDS[kind](Number(n));
  new MarkdownChunker({ unit: unit as 'char', chunkSize: unit === 'char' ? 1000 : 256, countTokens: false }).chunk(text);
  console.log(process.resourceUsage().maxRSS);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  runMarkdownScalingBench().then((md) => console.log(md));
}
