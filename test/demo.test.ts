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
    expect(r.stdout).toMatch(/^#1 S = \d\.\d{3} {2}\S+\.md \[\d+, \d+\)/m);
  });
});
