/**
 * Which interpreter the sandbox runs: WITNESS_PYTHON, else a built full profile, else Debian's —
 * and a virtualenv really is used inside the bwrap sandbox (its site-packages bound read-only).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../pool/pool.ts';
import { runProgram } from '../run-program.ts';
import { bwrapBackend } from './bwrap.ts';
import { FULL_PROFILE_STAMP, fullProfileDir, sandboxInterpreter, SYSTEM_PYTHON } from './interpreter.ts';

// Under the project's git-ignored .witness folder: the sandbox's own /tmp would hide a virtualenv in /tmp.
const scratch = fileURLToPath(new URL('../../../.witness', import.meta.url));
mkdirSync(scratch, { recursive: true });
const root = mkdtempSync(join(scratch, 'test-venv-'));
chmodSync(root, 0o755); // the sandbox user must reach it
afterAll(() => rmSync(root, { recursive: true, force: true }));

function makeVenv(dir: string): void {
  const made = spawnSync(SYSTEM_PYTHON, ['-m', 'venv', '--without-pip', dir], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  const site = spawnSync(join(dir, 'bin', 'python3'), ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(join(site, 'witness_profile_probe.py'), 'WHERE = "the virtualenv"\n');
}

describe('choosing the interpreter', () => {
  it('takes WITNESS_PYTHON, else a full profile once built (stamped), else Debian\'s python3', () => {
    const dir = join(root, 'profile');
    expect(sandboxInterpreter({ WITNESS_PYTHON_FULL_DIR: dir })).toEqual({ python: SYSTEM_PYTHON, source: 'system' });
    makeVenv(dir);
    expect(sandboxInterpreter({ WITNESS_PYTHON_FULL_DIR: dir }).source).toBe('system');
    writeFileSync(join(dir, FULL_PROFILE_STAMP), 'requirements');
    expect(sandboxInterpreter({ WITNESS_PYTHON_FULL_DIR: dir })).toEqual({ python: join(dir, 'bin', 'python3'), source: 'full profile' });
    expect(sandboxInterpreter({ WITNESS_PYTHON: SYSTEM_PYTHON, WITNESS_PYTHON_FULL_DIR: dir })).toEqual({ python: SYSTEM_PYTHON, source: 'WITNESS_PYTHON' });
    expect(() => sandboxInterpreter({ WITNESS_PYTHON: '/nowhere/python3' })).toThrow('WITNESS_PYTHON names /nowhere/python3, which does not exist');
    expect(fullProfileDir({})).toMatch(/\/\.witness\/python-full$/);
  });

  it('runs a virtualenv\'s interpreter (here without numpy) in the bwrap sandbox with its own site-packages, python on PATH', async () => {
    const dir = join(root, 'venv');
    makeVenv(dir);
    const pool = new WorkerPool({ backend: bwrapBackend({ python: join(dir, 'bin', 'python3') }), size: 1 });
    try {
      const outcome = await runProgram(pool, `import sys, subprocess, witness_profile_probe\nprint(sys.prefix == ${JSON.stringify(dir)}, witness_profile_probe.WHERE)\nprint(subprocess.run(['python', '-c', 'import witness_profile_probe'], capture_output=True).returncode)\nopen(witness_profile_probe.__file__, 'a')`);
      expect(outcome.stdout).toBe('True the virtualenv\n0\n');
      expect(outcome.reason).toMatch(/Read-only file system|Permission denied/);
    } finally {
      await pool.close();
    }
  });
});
