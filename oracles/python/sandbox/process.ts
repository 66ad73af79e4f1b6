/**
 * The `process` backend: the worker runs as an ordinary child process (as uid 65534 when the
 * harness runs as root) under prlimit, with an empty environment and its job folders in a private
 * temporary folder. THIS IS NOT A SECURITY BOUNDARY: candidates can read every file the user can,
 * reach the network and see other processes. Use it only where bubblewrap cannot run and the
 * candidates are trusted; it says so loudly every time one is created.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxUnavailableError, type BackendStatus, type SandboxBackend } from './backend.ts';
import {
  runsAsRoot,
  SANDBOX_GID,
  SANDBOX_UID,
  sandboxTempDir,
  unreachableReason,
  workerProcessCap,
} from '../../../core/sandbox/identity.ts';
import { sandboxInterpreter, type InterpreterSettings } from './interpreter.ts';
import { prlimitArgs } from '../../../core/sandbox/limits.ts';
import { interpreterBinDir, sandboxPath, stagedSystemDir } from '../../../core/sandbox/system-files.ts';
import { killGroup, trackExit, unrefChild } from './spawned.ts';

export const PROCESS_BACKEND_WARNING =
  'WARNING: the "process" Python sandbox is NOT a security boundary. Candidate programs run as ordinary ' +
  'processes with resource limits only: they can read files, use the network and signal other processes of ' +
  'the same user. Use the bwrap backend (apt-get install bubblewrap) for untrusted code.';

export function processBackend(
  options: { python?: string; interpreter?: InterpreterSettings; warn?: (message: string) => void } = {},
): SandboxBackend {
  const python = options.python ?? sandboxInterpreter(options.interpreter).python;
  const root = runsAsRoot();
  (options.warn ?? ((m: string) => process.stderr.write(`\n${m}\n\n`)))(PROCESS_BACKEND_WARNING);
  async function status(): Promise<BackendStatus> {
    if (!existsSync(python)) return { available: false, reason: `${python} does not exist` };
    const unreachable = unreachableReason(python, 'the interpreter');
    if (unreachable) return { available: false, reason: unreachable };
    return { available: true, detail: `${python} with resource limits only (not a security boundary)` };
  }
  return {
    name: 'process',
    isolated: false,
    status,
    async launch(spec) {
      const available = await status();
      if (!available.available) throw new SandboxUnavailableError('process', available.reason ?? 'unknown reason');
      const scratch = mkdtempSync(join(sandboxTempDir(), 'witness-scratch-'));
      chmodSync(scratch, 0o700);
      if (root) chownSync(scratch, SANDBOX_UID, SANDBOX_GID);
      const env = {
        ...spec.env,
        PATH: sandboxPath(interpreterBinDir(python), join(stagedSystemDir(python), 'bin')),
        HOME: scratch,
        WITNESS_SCRATCH: scratch,
        WITNESS_CLEANUP: 'tree',
      };
      const args = [
        ...prlimitArgs(spec.maxAddressSpaceBytes, spec.maxFileSizeBytes, workerProcessCap()),
        '--',
        python,
        '-s',
        '-B',
        join(spec.pyDir, 'worker.py'),
      ];
      const child = spawn('prlimit', args, {
        env,
        cwd: scratch,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(root ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : {}),
      });
      return {
        stdin: child.stdin,
        stdout: child.stdout,
        stderr: child.stderr,
        kill: () => killGroup(child),
        exited: trackExit(child),
        unref: () => unrefChild(child),
        cleanup: async () => rmSync(scratch, { recursive: true, force: true }),
      };
    },
  };
}
