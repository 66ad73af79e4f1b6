/**
 * For tests: `node bin/witness.js bench <args>` as a child process, with its own output folder and
 * run store, the sim model, and only the suite data variables the test sets on purpose (every
 * other SUITE_DATA_ENV variable, and NLRX_TURK_DIR, is removed from the child's environment).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUITE_DATA_ENV } from '../core/config-sections.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface BenchChild {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The child's output folder (results.json) and run store are under it. */
  dir: string;
}

/** Runs `witness bench` with `env` on top of this process's environment, without blocking this process. */
export function witnessBench(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 240_000): Promise<BenchChild> {
  const dir = mkdtempSync(join(tmpdir(), 'witness-bench-child-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    WITNESS_OUT: join(dir, 'out'),
    WITNESS_STORE: join(dir, 'store'),
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  for (const name of [...Object.values(SUITE_DATA_ENV), 'NLRX_TURK_DIR', 'WITNESS_MODEL', 'WITNESS_SPLIT'])
    delete childEnv[name];
  Object.assign(childEnv, env);
  const child = spawn(process.execPath, [join(root, 'bin/witness.js'), 'bench', ...args], { cwd: root, env: childEnv });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, dir });
    }),
  );
}
