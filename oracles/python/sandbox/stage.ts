/** Copies the worker's Python sources to a fresh folder the unprivileged sandbox user can read. */
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxTempDir } from '../../../core/sandbox/identity.ts';

export const PY_SOURCE_DIR = fileURLToPath(new URL('../py', import.meta.url));

let staged: string | undefined;

/** The staged folder (made once per process; its files are 0644 in a 0755 folder). */
export function stagedPythonDir(): string {
  if (staged) return staged;
  const dir = mkdtempSync(join(sandboxTempDir(), 'witness-py-'));
  for (const name of readdirSync(PY_SOURCE_DIR)) {
    if (!name.endsWith('.py')) continue;
    const target = join(dir, name);
    copyFileSync(join(PY_SOURCE_DIR, name), target);
    chmodSync(target, 0o644);
  }
  chmodSync(dir, 0o755);
  staged = dir;
  process.once('exit', () => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort: a temporary folder of a few kilobytes
    }
  });
  return dir;
}
