/**
 * The three sandbox backends behind one interface. bwrap's command line is checked as data and
 * by running; the docker backend is tested against a live engine only where one exists — on a
 * machine without one (like the CI machines) its tests check that it says so clearly; the process
 * backend runs, warns loudly, and is shown not to be a security boundary.
 */
import { spawn } from 'node:child_process';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../pool/pool.ts';
import { runProgram } from '../run-program.ts';
import { sandboxEnvironment, SandboxUnavailableError, type WorkerLaunch } from './backend.ts';
import { bwrapArgs, bwrapBackend } from './bwrap.ts';
import { containerOptions, dockerBackend } from './docker.ts';
import { sandboxIdentity } from '../../../core/sandbox/identity.ts';
import { DEFAULT_SCRATCH, GIB, MIB, prlimitArgs } from '../../../core/sandbox/limits.ts';
import { processBackend, PROCESS_BACKEND_WARNING } from './process.ts';
import { parseBackendChoice, resolveBackend } from './select.ts';
import { SANDBOX_BIN_DIR, SANDBOX_HOSTNAME, stagedSystemDir } from '../../../core/sandbox/system-files.ts';

const spec: WorkerLaunch = {
  pyDir: '/opt/witness-py',
  env: sandboxEnvironment(),
  maxAddressSpaceBytes: 8 * GIB,
  maxFileSizeBytes: 64 * MIB,
  scratch: DEFAULT_SCRATCH,
};

describe('the bwrap command line', () => {
  const args = bwrapArgs(spec);
  const joined = args.join(' ');

  it('unshares every namespace, forbids new user namespaces, drops capabilities and clears the environment', () => {
    for (const flag of [
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
      '--clearenv',
    ])
      expect(args).toContain(flag);
    expect(joined).toContain('--cap-drop ALL');
    expect(args).not.toContain('--share-net');
  });

  it('mounts the system read-only and only size-capped tmpfs folders writable', () => {
    expect(joined).toContain('--ro-bind /usr /usr');
    expect(joined).toContain('--ro-bind /opt/witness-py /witness');
    expect(joined).toContain(`--size ${DEFAULT_SCRATCH.scratchBytes} --tmpfs /sandbox`);
    expect(joined).toContain(`--size ${DEFAULT_SCRATCH.tmpBytes} --tmpfs /tmp`);
    expect(joined).toContain('--remount-ro /');
    const binds = [...joined.matchAll(/--(?:ro-)?bind (\S+)/g)].map((m) => m[1]);
    const system = stagedSystemDir('/usr/bin/python3');
    expect(
      binds.every(
        (p) => p === '/usr' || p === '/opt/witness-py' || p?.startsWith('/etc/') || p?.startsWith(`${system}/`),
      ),
    ).toBe(true);
    expect(joined).toContain(`--ro-bind ${system}/etc/hosts /etc/hosts`);
    expect(joined).toContain(`--ro-bind ${system}/bin ${SANDBOX_BIN_DIR}`);
    expect(joined).toContain(`--hostname ${SANDBOX_HOSTNAME}`);
    expect(args).not.toContain('--bind');
  });

  it("passes only the sandbox environment, never the harness's", () => {
    process.env.WITNESS_TEST_SECRET = 'do-not-leak';
    const env = Object.fromEntries(args.flatMap((a, i) => (a === '--setenv' ? [[args[i + 1], args[i + 2]]] : [])));
    delete process.env.WITNESS_TEST_SECRET;
    expect(env).toMatchObject({
      TZ: 'UTC',
      OMP_NUM_THREADS: '1',
      HOME: '/sandbox',
      WITNESS_CLEANUP: 'namespace',
      WITNESS_TMPDIR: '/tmp',
      PATH: `${SANDBOX_BIN_DIR}:/usr/local/bin:/usr/bin:/bin`,
    });
    expect(Object.keys(env)).not.toContain('OPENAI_API_KEY');
    expect(joined).not.toContain('do-not-leak');
  });

  it('starts the worker under prlimit caps', () => {
    expect(prlimitArgs(8 * GIB, 64 * MIB)).toEqual([
      `--as=${8 * GIB}`,
      `--fsize=${64 * MIB}`,
      '--nproc=1024',
      '--nofile=1024',
      '--core=0',
    ]);
  });

  it('is available on this machine (bubblewrap installed by .ci/setup.d/20-python.sh) and chosen by auto', async () => {
    expect(await bwrapBackend().status()).toMatchObject({ available: true });
    expect((await resolveBackend('auto')).name).toBe('bwrap');
    expect(parseBackendChoice(undefined)).toBe('auto');
    expect(() => parseBackendChoice('chroot')).toThrow(
      /unknown Python sandbox "chroot" \(choose one of: auto, bwrap, docker, process\)/,
    );
  });

  it('reports a broken interpreter as a failed start naming the backend and the interpreter', async () => {
    const pool = new WorkerPool({
      backend: bwrapBackend({ python: '/usr/bin/false' }),
      size: 1,
      startTimeoutMs: 10_000,
    });
    await expect(runProgram(pool, 'print(1)')).rejects.toThrow(
      'the bwrap Python sandbox is not available: the interpreter /usr/bin/false does not start in the sandbox: exit 1',
    );
    await pool.close();
  });
});

async function dockerEngineReachable(): Promise<boolean> {
  try {
    await new Docker({ timeout: 2000 }).ping();
    return true;
  } catch {
    return false;
  }
}
const engine = await dockerEngineReachable();

describe('the docker backend', () => {
  it('describes a locked-down container (no network, read-only root, uid 65534, no capabilities, tini)', () => {
    const options = containerOptions(spec, { image: 'img', python: 'python3', memoryBytes: 4 * GIB });
    expect(options).toMatchObject({ Image: 'img', User: '65534:65534', NetworkDisabled: true });
    expect(options.HostConfig).toMatchObject({
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Init: true,
      Memory: 4 * GIB,
    });
    expect(options.HostConfig?.Binds).toEqual(['/opt/witness-py:/witness:ro']);
    expect(options.Env).toContain('WITNESS_CLEANUP=namespace');
  });

  it.runIf(!engine)(
    'says clearly that no Docker engine is reachable (this machine has none) and refuses to launch',
    async () => {
      const backend = dockerBackend();
      const status = await backend.status();
      expect(status.available).toBe(false);
      expect(status.reason).toMatch(/^no Docker engine reachable \(/);
      await expect(backend.launch(spec)).rejects.toThrow(SandboxUnavailableError);
      await expect(backend.launch(spec)).rejects.toThrow(
        /the docker Python sandbox is not available: no Docker engine reachable/,
      );
    },
  );

  // Needs a Docker engine and the image; skipped where none is reachable (no engine on this project's machines).
  it.runIf(engine)('runs a program and contains the network in a live engine', async () => {
    const backend = dockerBackend();
    const status = await backend.status();
    expect(status.reason ?? '').toBe('');
    const pool = new WorkerPool({ backend, size: 1 });
    expect(await runProgram(pool, 'print(6 * 7)')).toMatchObject({ status: 'ok', stdout: '42\n' });
    expect((await runProgram(pool, "import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=2)")).status).toBe(
      'runtime',
    );
    await pool.close();
  });
});

describe('the process backend', () => {
  it('warns loudly that it is not a security boundary', () => {
    const warnings: string[] = [];
    processBackend({ warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([PROCESS_BACKEND_WARNING]);
    expect(warnings[0]).toMatch(/NOT a security boundary/);
  });

  it('enforces resource limits but leaves the host visible', async () => {
    const pool = new WorkerPool({ backend: processBackend({ warn: () => undefined }), size: 1 });
    expect(await runProgram(pool, 'import numpy\nprint(numpy.arange(3).sum())')).toMatchObject({
      status: 'ok',
      stdout: '3\n',
    });
    expect((await runProgram(pool, 'x = bytearray(64 * 1024 ** 3)')).reason).toMatch(
      /MemoryError.*address-space limit/,
    );
    expect((await runProgram(pool, 'import time\ntime.sleep(30)', { deadlineMs: 800 })).status).toBe('timeout');
    // Its phases' process limit counts the processes they start, not the user's others (here ten sleepers of the same user).
    const sleepers = Array.from({ length: 10 }, () =>
      spawn('sleep', ['60'], { stdio: 'ignore', ...sandboxIdentity() }),
    );
    try {
      const forks = await runProgram(
        pool,
        'import subprocess\nprint(sum(subprocess.run(["true"]).returncode == 0 for _ in range(3)))',
        { limits: { processes: 6 } },
      );
      expect(forks).toMatchObject({ status: 'ok', stdout: '3\n' });
      expect(
        (await runProgram(pool, 'import os\nfor _ in range(20):\n    os.fork()', { limits: { processes: 6 } })).reason,
      ).toMatch(/process limit of 6/);
    } finally {
      for (const sleeper of sleepers) sleeper.kill('SIGKILL');
    }
    // What bwrap hides, this backend shows: the host's /etc/passwd.
    expect((await runProgram(pool, "print(open('/etc/passwd').read().startswith('root:'))")).stdout).toBe('True\n');
    await pool.close();
  });
});
