/**
 * When bwrap cannot create its namespaces (user namespaces disabled, as for many non-root users),
 * the backend says so, with what to do, before any worker is started — here for real: the bwrap
 * it is given runs inside a sandbox that forbids further user namespaces.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxUnavailableError } from './backend.ts';
import { bwrapBackend } from './bwrap.ts';
import { namespaceHint } from './bwrap-status.ts';
import { sandboxTempDir } from '../../../core/sandbox/identity.ts';
import { DEFAULT_SCRATCH } from '../../../core/sandbox/limits.ts';

const dir = mkdtempSync(join(sandboxTempDir(), 'witness-bwrap-status-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a system where bwrap cannot create user namespaces', () => {
  it("is unavailable with bwrap's own message and what to do; launching says the same", async () => {
    const confined = join(dir, 'bwrap');
    writeFileSync(confined, '#!/bin/sh\nexec bwrap --unshare-user --disable-userns --dev-bind / / bwrap "$@"\n');
    chmodSync(confined, 0o755);
    const backend = bwrapBackend({ bwrap: confined, python: '/usr/bin/python3' });
    const status = await backend.status();
    expect(status.available).toBe(false);
    expect(status.reason).toMatch(
      /^bwrap cannot create a sandbox here: bwrap: Creating new namespace failed.*; this system does not let bwrap create user namespaces .*: allow them \(sysctl user.max_user_namespaces/,
    );
    expect(status.reason).toContain('WITNESS_PYTHON_SANDBOX=docker');
    await expect(
      backend.launch({
        pyDir: dir,
        env: {},
        maxAddressSpaceBytes: 1 << 30,
        maxFileSizeBytes: 1 << 20,
        scratch: DEFAULT_SCRATCH,
      }),
    ).rejects.toThrow(SandboxUnavailableError);
  });

  it('gives the hint only for namespace refusals', () => {
    expect(
      namespaceHint(
        'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces',
        false,
      ),
    ).toMatch(/as uid \d+ \(not root\)/);
    expect(namespaceHint('bwrap: setting up uid map: Permission denied', true)).toMatch(/even as root/);
    expect(namespaceHint('bwrap: execvp /nowhere: No such file or directory', false)).toBe('');
  });
});
