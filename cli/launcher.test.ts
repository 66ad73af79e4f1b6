/** The launcher's choice between dist/ and the sources (scripts/freshness.mjs), on a small tree of its own. */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleness } from '../scripts/freshness.mjs';

/** A checkout with one source folder, a test, an asset, and a dist/ whose build started at `builtAt`. */
function checkout(builtAt: Date | null): string {
  const root = mkdtempSync(join(tmpdir(), 'witness-launcher-'));
  const files: Record<string, string> = {
    'tsconfig.json': '{}',
    'tsconfig.build.json': JSON.stringify({ include: ['core', 'index.ts'] }),
    'index.ts': 'export {};',
    'core/a.ts': 'export const a = 1;',
    'core/a.test.ts': '',
    'core/py/worker.py': 'print(1)',
    'core/hostile/corpus.ts': '',
  };
  const old = new Date(Date.now() - 60_000);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
    utimesSync(join(root, file), old, old);
  }
  if (builtAt) {
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', '.build-stamp'), '{}');
    utimesSync(join(root, 'dist', '.build-stamp'), builtAt, builtAt);
  }
  return root;
}

const touch = (root: string, file: string) => {
  const now = new Date();
  utimesSync(join(root, file), now, now);
};

describe('whether dist/ is current', () => {
  it('is current when it was built after every source changed', () => {
    expect(staleness(checkout(new Date(Date.now() - 1_000)))).toBeNull();
  });

  it('is not current without a build, naming why', () => {
    expect(staleness(checkout(null))).toBe('dist/ is not built');
  });

  it('is not current once a source, an asset or the build configuration changed after the build, naming the file', () => {
    const builtAt = new Date(Date.now() - 30_000);
    for (const file of ['core/a.ts', 'core/py/worker.py', 'index.ts', 'tsconfig.build.json']) {
      const root = checkout(builtAt);
      touch(root, file);
      expect(staleness(root)).toBe(`${file} changed after dist/ was built`);
    }
  });

  it('stays current when only a test or test data changed', () => {
    const root = checkout(new Date(Date.now() - 30_000));
    touch(root, 'core/a.test.ts');
    touch(root, 'core/hostile/corpus.ts');
    expect(staleness(root)).toBeNull();
  });
});
