/**
 * A parent for the orphan test (`orphans.test.ts`): starts a pool on the backend named by argv[2]
 * with ORPHAN_MARKER in every phase's environment, runs a busy loop and a long sleep (which also
 * leaves a double-forked, setsid daemon) side by side, prints `running <staged sources folder>` once both have started,
 * and waits — to be killed with SIGKILL. Run with `node --import tsx`.
 */
import type { BackendChoice } from '../../oracles/python/sandbox/select.ts';
import { stagedPythonDir } from '../../oracles/python/sandbox/stage.ts';
import { WorkerPool } from '../../oracles/python/pool/pool.ts';

const backend = (process.argv[2] ?? 'bwrap') as BackendChoice;
const marker = process.argv[3] ?? 'witness-orphan-marker';
const pool = new WorkerPool({ backend, size: 2, env: { ORPHAN_MARKER: marker } });
const limits = {
  addressSpaceBytes: 4 * 1024 ** 3,
  cpuSeconds: 600,
  processes: 64,
  fileSizeBytes: 1 << 24,
  openFiles: 256,
  stackBytes: 10 << 20,
};
const phase = (source: string) => [{ name: 'program', kind: 'exec', payload: { source }, limits, deadlineMs: 600_000 }];
await pool.warm();

void pool.run(phase(`while True:\n    pass\n`));
void pool.run(
  phase(
    `import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(1000)\n    os._exit(0)\ntime.sleep(1000)\n`,
  ),
);
// Both jobs are dispatched at once to the two warm workers; give them a moment to fork.
// The staged sources' folder is in every process backend worker's command line (and so in its
// forked phases'): the marker in their environment is not readable when the harness is not root.
setTimeout(() => process.stdout.write(`running ${stagedPythonDir()}\n`), 1500);
setInterval(() => undefined, 1 << 30);
