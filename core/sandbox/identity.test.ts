/**
 * Reaching the sandbox's files as the sandbox user: as root the sandbox runs as uid 65534, which can
 * only enter folders others may enter. A folder it cannot enter is named (with its mode and the
 * way to fix it) instead of failing inside bwrap; the staged files move to /tmp when TMPDIR is out
 * of its reach.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxUnavailableError } from '../../oracles/python/sandbox/backend.ts';
import { processCapFor, runsAsRoot, SANDBOX_GID, SANDBOX_UID, sandboxTempDir } from './identity.ts';
import { blockedFolder } from './interpreter-layout.ts';
import { processBackend } from '../../oracles/python/sandbox/process.ts';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync('/tmp/witness-reach-');
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));
const hidden = join(root, 'hidden');
mkdirSync(join(hidden, 'bin'), { recursive: true });
chmodSync(hidden, 0o700);

describe('what the sandbox user can reach', () => {
  it('finds the first folder on the way that it cannot enter, by owner, group and others bits', () => {
    expect(blockedFolder(join(hidden, 'bin'), SANDBOX_UID, SANDBOX_GID)).toEqual({ folder: hidden, mode: 0o700 });
    expect(blockedFolder(root, SANDBOX_UID, SANDBOX_GID)).toBeNull();
    // The owner may enter its own 0700 folder; a member of its group may enter a 0710 one.
    const self = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
    expect(blockedFolder(join(hidden, 'bin'), self.uid, 4242)).toBeNull();
    chmodSync(hidden, 0o710);
    expect(blockedFolder(join(hidden, 'bin'), 4242, self.gid)).toBeNull();
    expect(blockedFolder(join(hidden, 'bin'), 4242, 4243)).toEqual({ folder: hidden, mode: 0o710 });
    chmodSync(hidden, 0o700);
  });

  it("stages the sandbox's files in TMPDIR, or in /tmp when the sandbox user cannot enter TMPDIR", () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = join(hidden, 'bin');
    try {
      expect(sandboxTempDir()).toBe(runsAsRoot() ? '/tmp' : join(hidden, 'bin'));
      process.env.TMPDIR = root;
      expect(sandboxTempDir()).toBe(root);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it("runs sandboxed programs when TMPDIR is out of the sandbox user's reach", () => {
    const script =
      "import { WorkerPool } from './oracles/python/pool/pool.ts'; import { runProgram } from './oracles/python/run-program.ts';" +
      "const pool = new WorkerPool({ backend: 'bwrap', size: 1 }); runProgram(pool, 'print(6 * 7)').then((o) => { console.log(o.stdout.trim()); return pool.close(); });";
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: PROJECT,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: join(hidden, 'bin') },
      timeout: 60_000,
    });
    expect(`${run.stdout.trim()}${run.stderr.slice(-500)}`).toBe('42');
  });

  it("caps a worker's processes at 1024 of the sandbox user as root, else on top of the user's own, within its hard limit", () => {
    expect(processCapFor(true, 500, Number.POSITIVE_INFINITY)).toBe(1024);
    expect(processCapFor(false, 300, Number.POSITIVE_INFINITY)).toBe(1324);
    expect(processCapFor(false, 300, 1000)).toBe(1000);
  });

  it('the process backend names an interpreter the sandbox user cannot reach (as root), instead of failing to start', async () => {
    const python = join(hidden, 'bin', 'python3');
    copyFileSync('/usr/bin/python3', python);
    const backend = processBackend({ python, warn: () => undefined });
    const status = await backend.status();
    if (runsAsRoot()) {
      expect(status).toEqual({
        available: false,
        reason: expect.stringContaining(
          `which cannot enter ${hidden} (mode 0700) on the way to the interpreter ${python}; move it`,
        ),
      });
      await expect(
        backend.launch({
          pyDir: root,
          env: {},
          maxAddressSpaceBytes: 1 << 30,
          maxFileSizeBytes: 1 << 20,
          scratch: { scratchBytes: 1, tmpBytes: 1, shmBytes: 1 },
        }),
      ).rejects.toThrow(SandboxUnavailableError);
    } else {
      expect(status.available).toBe(true);
    }
  });
});
