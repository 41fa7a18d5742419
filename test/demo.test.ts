import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { strategyNames } from '../src/index.js';
import { repoRoot } from './helpers/paths.js';

describe('npm run demo (the main job)', () => {
  it('chunks the README and docs with every strategy, writes JSONL whose offsets slice back, and answers a QASC query', () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'dist', 'src', 'cli', 'demo.js')], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const name of strategyNames().filter((n) => n !== 'late')) {
      const row = r.stdout.split('\n').find((l) => l.startsWith(`| ${name} |`));
      expect(row, name).toBeDefined();
      const chunks = Number(row!.split('|')[3]);
      expect(chunks, name).toBeGreaterThan(5);
      const lines = readFileSync(join(repoRoot, 'out', 'demo', `${name}.jsonl`), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(chunks);
      const sources = new Map<string, string>();
      for (const line of lines) {
        const c = JSON.parse(line);
        if (!sources.has(c.source)) sources.set(c.source, readFileSync(join(repoRoot, c.source), 'utf8'));
        expect(c.text).toBe(sources.get(c.source)!.slice(c.start, c.end));
      }
    }
    expect(r.stdout).toMatch(/^QASC: ".+" \(\d+ pre-chunks/m);
    // the score QASC ranks by (fused = seed + candidate cosine) is the one printed, and it falls
    expect(r.stdout).toMatch(/^ranked by fused = seed \+ candidate cosine/m);
    const ranked = [...r.stdout.matchAll(/^#(\d+) fused = (\d\.\d{3}) \(seed (\d\.\d{3}) \+ candidate (\d\.\d{3})\), S = \d\.\d{3} {2}\S+\.md \[\d+, \d+\)/gm)];
    expect(ranked.map((m) => Number(m[1]))).toEqual([1, 2, 3]);
    for (const m of ranked) expect(Number(m[2])).toBeCloseTo(Number(m[3]) + Number(m[4]), 2);
    const fused = ranked.map((m) => Number(m[2]));
    expect(fused).toEqual([...fused].sort((a, b) => b - a));
  });

  it('runs each strategy on the input it is for: html on HTML pages, code on source files, the others on the Markdown docs', () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'dist', 'src', 'cli', 'demo.js')], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const sourcesOf = (name: string) => new Set(readFileSync(join(repoRoot, 'out', 'demo', `${name}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l).source as string));
    const html = [...sourcesOf('html')];
    expect(html.length).toBeGreaterThanOrEqual(2);
    for (const f of html) expect(f).toMatch(/\.html$/);
    for (const f of sourcesOf('code')) expect(f).toMatch(/^src\/apps\/cli\/.+\.ts$/);
    for (const f of sourcesOf('markdown')) expect(f).toMatch(/\.md$/);
    // the table says so (over the Markdown docs, `<b` in `Σ_{a<b}` opened an HTML tag: one chunk of 5,648 characters)
    expect(r.stdout.split('\n').find((l) => l.startsWith('| html |'))).toMatch(/\| \d+ files: web\/\*\.html, test\/golden\/html\/\*\.html \|$/);
    expect(r.stdout.split('\n').find((l) => l.startsWith('| code |'))).toMatch(/\| \d+ files: src\/apps\/cli\/\*\.ts \|$/);
  });
});
