/**
 * The host folder of one harness episode: `witness-harness-<host pid>-XXXXXX/code` in the sandbox's
 * temporary folder, holding the runner, the SDK runtime and the compiled harness, which the sandbox
 * mounts read-only. The child's writable job folder is a size-capped tmpfs inside the sandbox, so
 * nothing it writes reaches the host's disk. The folder is removed when the episode ends; the
 * folders of a host that was killed before it could do that are removed by the next host that
 * stages one (only those whose host process is gone).
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxTempDir } from '../../core/sandbox/identity.ts';

const CHILD_DIR = fileURLToPath(new URL('./child/', import.meta.url));
const PREFIX = 'witness-harness-';
const OWNED = /^witness-harness-(\d+)-[A-Za-z0-9]{6}$/;

/** A staged episode: its folder and the code folder inside it. */
export interface StagedJob {
  root: string;
  code: string;
  remove(): void;
}

/** Removes a staged folder, its read-only code folder included. */
function removeStaged(root: string): void {
  try {
    chmodSync(join(root, 'code'), 0o755);
  } catch {
    // not there (a folder cut short while it was staged)
  }
  rmSync(root, { recursive: true, force: true });
}

/** Whether a process with this id exists (one we may not signal exists too). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the staged folders in `dir` whose host process is gone; returns their names. */
export function reapLeftovers(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => {
    const owner = OWNED.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || processAlive(Number(owner))) return false;
    removeStaged(join(dir, name));
    return true;
  });
}

const reaped = new Set<string>();

/** Copies the runner, the SDK runtime and the compiled harness into a fresh folder the sandbox user can read. */
export function stageJob(harnessCode: string): StagedJob {
  const dir = sandboxTempDir();
  if (!reaped.has(dir)) {
    reaped.add(dir);
    reapLeftovers(dir);
  }
  const root = mkdtempSync(join(dir, `${PREFIX}${process.pid}-`));
  const code = join(root, 'code');
  mkdirSync(code);
  for (const file of ['runner.mjs', 'sdk.mjs']) copyFileSync(join(CHILD_DIR, file), join(code, file));
  writeFileSync(join(code, 'harness.mjs'), harnessCode);
  for (const file of ['runner.mjs', 'sdk.mjs', 'harness.mjs']) chmodSync(join(code, file), 0o444);
  chmodSync(code, 0o555);
  chmodSync(root, 0o755);
  return { root, code, remove: () => removeStaged(root) };
}
