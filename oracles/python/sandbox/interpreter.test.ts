/**
 * Which interpreter the sandbox runs: WITNESS_PYTHON, else a built full profile, else Debian's — and
 * a virtualenv really is used inside the bwrap sandbox (its site-packages bound read-only) wherever
 * it lives: built under /tmp on purpose (the sandbox mounts its own /tmp), made from a base
 * interpreter outside /usr (as pyenv installs one), or reached through a link elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../pool/pool.ts';
import { runProgram } from '../run-program.ts';
import { bwrapBackend } from './bwrap.ts';
import { runsAsRoot } from '../../../core/sandbox/identity.ts';
import { interpreterLayout } from '../../../core/sandbox/interpreter-layout.ts';
import { loadConfig } from '../../../core/config.ts';
import { FULL_PROFILE_STAMP, sandboxInterpreter, SYSTEM_PYTHON } from './interpreter.ts';

// Under /tmp whatever the project's own place: the sandbox's private /tmp must not hide it.
const root = mkdtempSync('/tmp/witness-test-venv-');
chmodSync(root, 0o755); // the sandbox user must reach it
afterAll(() => rmSync(root, { recursive: true, force: true }));

function makeVenv(dir: string, base = SYSTEM_PYTHON): void {
  const made = spawnSync(base, ['-m', 'venv', '--without-pip', dir], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  const site = spawnSync(
    join(dir, 'bin', 'python3'),
    ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
    { encoding: 'utf8' },
  ).stdout.trim();
  writeFileSync(join(site, 'witness_profile_probe.py'), 'WHERE = "the virtualenv"\n');
}

/** A base interpreter outside /usr, laid out as pyenv lays one out: prefix/bin/python3.11 and prefix/lib/python3.11. */
function makeBase(prefix: string): string {
  const version = spawnSync(SYSTEM_PYTHON, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
    encoding: 'utf8',
  }).stdout.trim();
  mkdirSync(join(prefix, 'bin'), { recursive: true });
  mkdirSync(join(prefix, 'lib'));
  const python = join(prefix, 'bin', `python${version}`);
  copyFileSync(`/usr/bin/python${version}`, python);
  chmodSync(python, 0o755);
  symlinkSync(`/usr/lib/python${version}`, join(prefix, 'lib', `python${version}`));
  return python;
}

async function inSandbox(python: string, source: string) {
  const pool = new WorkerPool({ backend: bwrapBackend({ python }), size: 1 });
  try {
    return [
      await runProgram(pool, source),
      await runProgram(pool, 'import witness_profile_probe\nprint(witness_profile_probe.WHERE)'),
    ] as const;
  } finally {
    await pool.close();
  }
}

describe('choosing the interpreter', () => {
  it("takes WITNESS_PYTHON, else a full profile once built (stamped), else Debian's python3", () => {
    const dir = join(root, 'profile');
    expect(sandboxInterpreter({ fullProfileDir: dir })).toEqual({ python: SYSTEM_PYTHON, source: 'system' });
    makeVenv(dir);
    expect(sandboxInterpreter({ fullProfileDir: dir }).source).toBe('system');
    writeFileSync(join(dir, FULL_PROFILE_STAMP), 'requirements');
    expect(sandboxInterpreter({ fullProfileDir: dir })).toEqual({
      python: join(dir, 'bin', 'python3'),
      source: 'full profile',
    });
    expect(sandboxInterpreter({ interpreter: SYSTEM_PYTHON, fullProfileDir: dir })).toEqual({
      python: SYSTEM_PYTHON,
      source: 'WITNESS_PYTHON',
    });
    expect(() => sandboxInterpreter({ interpreter: '/nowhere/python3', fullProfileDir: dir })).toThrow(
      'WITNESS_PYTHON names /nowhere/python3, which does not exist',
    );
    expect(loadConfig(process.cwd(), {}).config.python.fullProfileDir).toMatch(/\/\.witness\/python-full$/);
  });

  it("runs a virtualenv's interpreter under /tmp (here without numpy) in the bwrap sandbox with its own site-packages, python on PATH, and nothing else of its folder", async () => {
    const project = join(root, 'project');
    const dir = join(project, '.witness', 'venv');
    makeVenv(dir);
    writeFileSync(join(project, 'secret.txt'), 'project file');
    const [first, after] = await inSandbox(
      join(dir, 'bin', 'python3'),
      `import os, sys, subprocess, witness_profile_probe
print(sys.prefix == ${JSON.stringify(dir)}, witness_profile_probe.WHERE)
print(subprocess.run(['python', '-c', 'import witness_profile_probe'], capture_output=True).returncode)
print(os.path.exists(${JSON.stringify(join(project, 'secret.txt'))}), os.listdir(${JSON.stringify(project)}))
for attempt in (lambda: os.rename(${JSON.stringify(root)}, '/tmp/moved'), lambda: os.rename(${JSON.stringify(project)}, '/tmp/moved'), lambda: open(${JSON.stringify(join(project, 'x'))}, 'w')):
    try:
        attempt()
        print('changed')
    except OSError as error:
        print(type(error).__name__)
open(witness_profile_probe.__file__, 'a')`,
    );
    expect(first.stdout).toBe("True the virtualenv\n0\nFalse ['.witness']\nOSError\nOSError\nOSError\n");
    expect(first.reason).toMatch(/Read-only file system|Permission denied/);
    // The sandbox's /tmp was wiped after the run; the virtualenv is still there for the next one.
    expect(after).toMatchObject({ status: 'ok', stdout: 'the virtualenv\n' });
  });

  it('runs a virtualenv made from a base interpreter outside /usr, the base bound too (sys.base_prefix as on the host)', async () => {
    const base = join(root, 'pyenv', 'versions', 'base');
    const dir = join(root, 'venv-of-base');
    makeVenv(dir, makeBase(base));
    const python = join(dir, 'bin', 'python3');
    expect(interpreterLayout(python).folders).toEqual([base, dir].sort());
    const [first] = await inSandbox(
      python,
      'import sys, subprocess\nprint(sys.base_prefix, sys.prefix)\nprint(subprocess.run(["python3", "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True).stdout.strip())',
    );
    expect(first.stdout).toBe(`${base} ${dir}\n${dir}\n`);
  });

  it('runs an interpreter reached through a link elsewhere by re-creating the link, not by exposing its folder', async () => {
    const links = join(root, 'links');
    mkdirSync(links);
    writeFileSync(join(links, 'secret.txt'), 'not for the sandbox');
    symlinkSync(SYSTEM_PYTHON, join(links, 'python3'));
    const python = join(links, 'python3');
    expect(interpreterLayout(python)).toMatchObject({
      folders: [],
      links: [{ path: python, target: SYSTEM_PYTHON }],
      binDir: null,
    });
    const pool = new WorkerPool({ backend: bwrapBackend({ python }), size: 1 });
    try {
      const outcome = await runProgram(
        pool,
        `import os, subprocess\nprint(os.listdir(${JSON.stringify(links)}), subprocess.run(['python', '-c', 'print(6 * 7)'], capture_output=True, text=True).stdout.strip())`,
      );
      expect(outcome.stdout).toBe("['python3'] 42\n");
    } finally {
      await pool.close();
    }
  });

  it('names the folder the sandbox user cannot enter when the harness runs as root (and runs it otherwise)', async () => {
    const hidden = join(root, 'private');
    const python = makeBase(join(hidden, 'base'));
    chmodSync(hidden, 0o700);
    const backend = bwrapBackend({ python });
    const status = await backend.status();
    if (runsAsRoot()) {
      expect(status.available).toBe(false);
      expect(status.reason).toContain(
        `cannot enter ${hidden} (mode 0700) on the way to the interpreter's folder ${join(hidden, 'base')}`,
      );
      await expect(
        backend.launch({
          pyDir: root,
          env: {},
          maxAddressSpaceBytes: 1 << 30,
          maxFileSizeBytes: 1 << 20,
          scratch: { scratchBytes: 1 << 20, tmpBytes: 1 << 20, shmBytes: 1 << 20 },
        }),
      ).rejects.toThrow(/the bwrap Python sandbox is not available: the sandbox runs as uid 65534/);
    } else {
      expect(status).toMatchObject({ available: true });
    }
  });

  it('refuses a script (a pyenv shim), a link the sandbox would wipe and an interpreter in a folder the sandbox replaces, saying why', () => {
    const shim = join(root, 'shim');
    writeFileSync(shim, '#!/usr/bin/env bash\nexec pyenv exec python3 "$@"\n');
    chmodSync(shim, 0o755);
    expect(() => interpreterLayout(shim)).toThrow(/is a script \(a pyenv shim\?\), not Python itself/);
    const loose = `${root}-python3`; // directly in /tmp
    symlinkSync(SYSTEM_PYTHON, loose);
    try {
      expect(() => interpreterLayout(loose)).toThrow(
        `needs ${loose}, which the sandbox cannot provide (a link directly in /tmp)`,
      );
    } finally {
      rmSync(loose);
    }
    expect(() => interpreterLayout('/proc/self/exe')).toThrow(
      'needs /proc/self/exe, which the sandbox cannot provide (it has its own /proc)',
    );
  });
});
