/**
 * The layer rules of .dependency-cruiser.cjs (what `npm run layers` checks in `npm test`), run on a
 * small tree with one import of each kind the house forbids, and with the imports it allows.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './package-root.ts';

const depcruise = join(PACKAGE_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const dir = mkdtempSync(join(tmpdir(), 'witness-layers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `files` (path → the paths it imports) into the tree and cruises it; returns the violations. */
function cruise(files: Record<string, string[]>): string[] {
  const root = mkdtempSync(join(dir, 'tree-'));
  copyFileSync(join(PACKAGE_ROOT, '.dependency-cruiser.cjs'), join(root, '.dependency-cruiser.cjs'));
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    const relative = (to: string) => {
      const up = path.split('/').length - 1;
      return `${'../'.repeat(up) || './'}${to}`;
    };
    writeFileSync(
      join(root, path),
      imports.map((to, i) => `import { x as x${i} } from '${relative(to)}';`).join('\n') + '\nexport const x = 1;\n',
    );
  }
  const run = spawnSync(
    process.execPath,
    [depcruise, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...Object.keys(files)],
    { cwd: root, encoding: 'utf8' },
  );
  const result = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string }[] } };
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from}`).sort();
}

describe('the layer rules', () => {
  it('allow imports that point down, into core, and tests that combine folders', () => {
    expect(
      cruise({
        'core/a.ts': ['core/b.ts'],
        'core/b.ts': [],
        'oracles/sql/a.ts': ['core/a.ts', 'oracles/sql/b.ts'],
        'oracles/sql/b.ts': [],
        'strategies/a.ts': ['core/a.ts'],
        'reports/a.ts': ['core/a.ts'],
        'optimizers/hero/a.ts': ['core/a.ts', 'oracles/sql/a.ts', 'strategies/a.ts', 'reports/a.ts'],
        'suites/a.eval.ts': ['optimizers/hero/a.ts', 'suites/b.ts'],
        'suites/b.ts': [],
        'cli/a.ts': ['optimizers/hero/a.ts'],
        'core/a.test.ts': ['reports/a.ts', 'suites/b.ts'],
      }),
    ).toEqual([]);
  }, 60_000);

  it('name every import that runs up, across oracle families or into suites/', () => {
    expect(
      cruise({
        'core/a.ts': ['reports/a.ts'],
        'reports/a.ts': ['strategies/a.ts'],
        'strategies/a.ts': ['oracles/sql/a.ts'],
        'oracles/sql/a.ts': ['oracles/regex/a.ts'],
        'oracles/regex/a.ts': ['optimizers/hero/a.ts'],
        'optimizers/hero/a.ts': ['suites/b.ts'],
        'suites/b.ts': [],
      }),
    ).toEqual([
      'core-imports-only-itself: core/a.ts',
      'no-oracle-imports-another: oracles/sql/a.ts',
      'nothing-imports-suites: optimizers/hero/a.ts',
      'optimizers-imports-only-core-oracles-strategies-reports: optimizers/hero/a.ts',
      'oracles-imports-only-core: oracles/regex/a.ts',
      'reports-imports-only-core: reports/a.ts',
      'strategies-imports-only-core: strategies/a.ts',
    ]);
  }, 60_000);

  it('name every import of testing/ from the build, and allow it from tests, perf and the hostile corpora', () => {
    expect(
      cruise({
        'index.ts': ['testing/a.ts'],
        'cli/a.ts': ['testing/a.ts'],
        'suites/b.ts': ['testing/a.ts'],
        'testing/a.ts': ['oracles/sql/a.ts', 'oracles/regex/a.ts', 'optimizers/hero/a.ts'],
        'oracles/sql/a.ts': [],
        'oracles/regex/a.ts': [],
        'optimizers/hero/a.ts': [],
        'cli/a.test.ts': ['testing/a.ts'],
        'perf/a.ts': ['testing/a.ts'],
        'oracles/sql/hostile/c.ts': ['testing/a.ts', 'oracles/regex/a.ts'],
      }),
    ).toEqual([
      'nothing-in-the-build-imports-testing: cli/a.ts',
      'nothing-in-the-build-imports-testing: index.ts',
      'nothing-in-the-build-imports-testing: suites/b.ts',
    ]);
  }, 60_000);
});
