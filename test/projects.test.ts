/**
 * Every test file runs in exactly one vitest project (vitest.config.ts): `unit` (what
 * `npm test` runs), `package` or `slow`. A file in none would never run; a file in two
 * would run twice; a name in the lists that matches no file (a file moved or renamed)
 * would silently put that file back into `unit`.
 */
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { packageFiles, projects, slowFiles } from '../vitest.config.js';
import { repoRoot } from './helpers/paths.js';

const all = globSync('test/**/*.test.ts', { cwd: repoRoot, ignore: ['**/node_modules/**'] }).sort();
const members = Object.fromEntries(
  Object.entries(projects).map(([name, p]) => [name, new Set(globSync(p.include, { cwd: repoRoot, ignore: p.exclude }))]),
);

describe('vitest projects', () => {
  it('finds the test files (this one among them)', () => {
    expect(all).toContain('test/projects.test.ts');
    expect(all.length).toBeGreaterThan(50);
  });

  it('puts each test file in exactly one project', () => {
    const wrong = all
      .map((file) => [file, Object.keys(members).filter((name) => members[name].has(file))] as const)
      .filter(([, names]) => names.length !== 1)
      .map(([file, names]) => `${file}: ${names.length ? names.join(' and ') : 'no project'}`);
    expect(wrong).toEqual([]);
  });

  it('names only files that exist, once', () => {
    const listed = [...packageFiles, ...slowFiles];
    expect(listed.filter((f) => !all.includes(f))).toEqual([]);
    expect(listed.filter((f, i) => listed.indexOf(f) !== i)).toEqual([]);
  });

  it('keeps this check in unit, where npm test runs it', () => {
    expect(members.unit.has('test/projects.test.ts')).toBe(true);
  });
});
