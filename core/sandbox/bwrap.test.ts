/**
 * The one bubblewrap launcher: its command line as data, for a small sandbox and for both of its
 * uses (the Python oracle's worker, the candidate harness's child), and a real sandbox started
 * through it, which sees only its own writable folder, no network and only its own environment,
 * and dies with its whole process group.
 */
import { describe, expect, it } from 'vitest';
import {
  bwrapOptions,
  killProcessGroup,
  launchArgs,
  launchSandbox,
  SANDBOX_NAMESPACE_ARGS,
  USR_ROOT_ARGS,
  type SandboxLaunch,
} from './bwrap.ts';
import { DEFAULT_SCRATCH, GIB, MIB } from './limits.ts';
import { sandboxEnvironment } from '../../oracles/python/sandbox/backend.ts';
import { bwrapArgs } from '../../oracles/python/sandbox/bwrap.ts';
import { DEFAULT_LIMITS } from '../../strategies/harness/budgets.ts';
import { sandboxCommand } from '../../strategies/harness/sandbox.ts';

const small: SandboxLaunch = {
  caps: { addressSpaceBytes: GIB, fileSizeBytes: MIB, processes: 32, openFiles: 64 },
  sandbox: {
    tmpfs: [{ path: '/job', bytes: MIB }],
    program: ['--ro-bind', '/usr/bin', '/code'],
    chdir: '/job',
    env: { PATH: '/usr/bin', SEEN: 'yes' },
  },
  command: [
    '/usr/bin/sh',
    '-c',
    'env; cat /proc/net/dev; touch /job/mine && echo wrote-job; touch /code/x 2>/dev/null || echo no-code; touch /x 2>/dev/null || echo no-root; ulimit -f',
  ],
};

/** The bwrap options of a full command line (between `bwrap` and the program). */
function bwrapPart(args: string[], program: string): string[] {
  return args.slice(args.indexOf('bwrap') + 1, args.lastIndexOf(program));
}

/** The safety every sandbox has, whatever it binds. */
function expectSharedSafety(options: string[]): void {
  expect(options.slice(0, SANDBOX_NAMESPACE_ARGS.length + 1)).toEqual([...SANDBOX_NAMESPACE_ARGS, '--new-session']);
  const joined = options.join(' ');
  expect(joined).toContain('--cap-drop ALL --clearenv');
  expect(joined).toContain(USR_ROOT_ARGS.join(' '));
  expect(options).not.toContain('--bind');
  expect(options).not.toContain('--share-net');
  // Every writable place is a size-capped tmpfs, and the root is made read-only after every mount.
  options.forEach((arg, i) => {
    if (arg === '--tmpfs') expect(options[i - 2]).toBe('--size');
  });
  const rootReadOnly = options.indexOf('--remount-ro', options.lastIndexOf('--ro-bind'));
  expect(options.slice(rootReadOnly).join(' ')).toMatch(/^(--remount-ro \S+ )*--remount-ro \/ --chdir /);
}

describe('the shared launcher', () => {
  it('builds prlimit caps, then bwrap with its own namespaces, the sandbox, then the program', () => {
    expect(launchArgs(small)).toEqual([
      `--as=${GIB}`,
      `--fsize=${MIB}`,
      '--nproc=32',
      '--nofile=64',
      '--core=0',
      '--',
      'bwrap',
      ...bwrapOptions(small.sandbox),
      ...small.command,
    ]);
    expect(bwrapOptions(small.sandbox)).toEqual([
      ...SANDBOX_NAMESPACE_ARGS,
      '--new-session',
      '--cap-drop',
      'ALL',
      '--clearenv',
      ...USR_ROOT_ARGS,
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--size',
      String(MIB),
      '--tmpfs',
      '/job',
      '--ro-bind',
      '/usr/bin',
      '/code',
      '--remount-ro',
      '/',
      '--chdir',
      '/job',
      '--setenv',
      'PATH',
      '/usr/bin',
      '--setenv',
      'SEEN',
      'yes',
    ]);
  });

  it('gives the Python worker the shared safety and its own mounts', () => {
    const spec = {
      pyDir: '/opt/witness-py',
      env: sandboxEnvironment(),
      maxAddressSpaceBytes: 8 * GIB,
      maxFileSizeBytes: 64 * MIB,
      scratch: DEFAULT_SCRATCH,
    };
    const options = bwrapArgs(spec, '/usr/bin/python3').slice(0, -4);
    expectSharedSafety(options);
    expect(options.join(' ')).toContain('--remount-ro /dev --remount-ro / --chdir /sandbox');
  });

  it("gives the harness child the shared safety, its own mounts and the child's caps", () => {
    const args = sandboxCommand({ code: '/staged/code' }, DEFAULT_LIMITS, '/usr/bin/node');
    expectSharedSafety(bwrapPart(args, '/usr/bin/node'));
    expect(args.slice(0, args.indexOf('--'))).toEqual([
      `--as=${DEFAULT_LIMITS.addressSpaceBytes}`,
      `--cpu=${DEFAULT_LIMITS.cpuSeconds}`,
      `--fsize=${DEFAULT_LIMITS.fileSizeBytes}`,
      '--nproc=1024',
      '--nofile=256',
      '--core=0',
    ]);
  });

  it('starts a real sandbox that writes only its tmpfs, has no network and sees only its environment', async () => {
    process.env.WITNESS_TEST_SECRET = 'do-not-leak';
    const child = launchSandbox(small);
    delete process.env.WITNESS_TEST_SECRET;
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toEqual(expect.arrayContaining(['SEEN=yes', 'PATH=/usr/bin', 'wrote-job', 'no-code', 'no-root']));
    expect(out).not.toContain('do-not-leak');
    // Only the loopback: the sandbox has its own network namespace.
    const interfaces = lines.filter((line) => /^\s*\w+:/.test(line)).map((line) => line.trim().split(':')[0]);
    expect(interfaces).toEqual(['lo']);
    // The file-size cap, in the shell's 512-byte blocks.
    expect(lines.at(-1)).toBe(String(MIB / 512));
  });

  it('kills the whole process group of a sandbox at once', async () => {
    const child = launchSandbox({ ...small, command: ['/usr/bin/sh', '-c', '/usr/bin/sleep 60 & /usr/bin/sleep 60'] });
    const closed = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('close', (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve) => child.once('spawn', resolve));
    expect(killProcessGroup(child.pid)).toBe(true);
    expect(await closed).toBe('SIGKILL');
    expect(killProcessGroup(undefined)).toBe(false);
  });
});
