/** The launcher's choice between dist/ and the sources (scripts/freshness.mjs), on a small tree of its own. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInputs } from '../scripts/build-inputs.mjs';
import { staleness } from '../scripts/freshness.mjs';

/**
 * A checkout with one source folder, a test, an asset, and a dist/ whose build started at `builtAt`
 * and whose stamp lists the inputs as the build does (or lists none, as builds before the list did).
 */
function checkout(builtAt: Date | null, { listed = true } = {}): string {
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
    writeFileSync(join(root, 'dist', '.build-stamp'), JSON.stringify(listed ? { inputs: buildInputs(root) } : {}));
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

  it('is not current once an input was removed, or when its stamp lists no inputs', () => {
    const root = checkout(new Date(Date.now() - 30_000));
    rmSync(join(root, 'core/py/worker.py'));
    expect(staleness(root)).toBe('core/py/worker.py was removed after dist/ was built');
    expect(staleness(checkout(new Date(), { listed: false }))).toBe('dist/ was built by an older build script');
  });

  it('stays current when only a test or test data changed', () => {
    const root = checkout(new Date(Date.now() - 30_000));
    touch(root, 'core/a.test.ts');
    touch(root, 'core/hostile/corpus.ts');
    expect(staleness(root)).toBeNull();
  });
});
