/**
 * The Docker backend, through dockerode: the worker runs in a container of an image that has
 * Python with the task libraries (BigCodeBench's official evaluation image by default), as
 * uid 65534, with no network, a read-only root, all capabilities dropped, no new privileges, a
 * process and memory cap, tini as PID 1 (so the worker can end every process of a phase), and
 * size-capped tmpfs folders as the only writable places. The worker's sources are bind-mounted
 * read-only. Where no Docker engine is reachable, `status()` says so and `launch()` refuses.
 */
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { ContainerCreateOptions } from 'dockerode';
import {
  SandboxUnavailableError,
  type BackendStatus,
  type SandboxBackend,
  type WorkerExit,
  type WorkerLaunch,
} from './backend.ts';
import { WORKER_PROCESS_CAP } from '../../../core/sandbox/limits.ts';

export const DEFAULT_DOCKER_IMAGE = 'bigcodebench/bigcodebench-evaluate:latest';

export interface DockerOptions {
  /** Image with python3 and the task libraries (default: BigCodeBench's evaluation image). */
  image?: string;
  /** The interpreter inside the image (default `python3`). */
  python?: string;
  /** A dockerode client (default: from DOCKER_HOST or /var/run/docker.sock). */
  docker?: Docker;
  /** Memory cap of the container (default 8 GiB). */
  memoryBytes?: number;
  /** How long to wait for the engine to answer a ping (default 3 s). */
  pingTimeoutMs?: number;
}

/** The container definition for a worker (pure, so it can be checked without an engine). */
export function containerOptions(
  spec: WorkerLaunch,
  options: { image: string; python: string; memoryBytes: number },
): ContainerCreateOptions {
  const env = {
    ...spec.env,
    HOME: '/sandbox',
    WITNESS_SCRATCH: '/sandbox',
    WITNESS_CLEANUP: 'namespace',
    WITNESS_TMPDIR: '/tmp',
  };
  const tmpfs = (bytes: number) => `rw,nosuid,nodev,size=${bytes},uid=65534,gid=65534,mode=0700`;
  return {
    Image: options.image,
    Cmd: [options.python, '-s', '-B', '/witness/worker.py'],
    User: '65534:65534',
    WorkingDir: '/sandbox',
    Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    StdinOnce: true,
    Tty: false,
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Binds: [`${spec.pyDir}:/witness:ro`],
      Tmpfs: { '/sandbox': tmpfs(spec.scratch.scratchBytes), '/tmp': tmpfs(spec.scratch.tmpBytes) },
      ShmSize: spec.scratch.shmBytes,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Init: true,
      PidsLimit: WORKER_PROCESS_CAP,
      Memory: options.memoryBytes,
      MemorySwap: options.memoryBytes,
      Ulimits: [
        { Name: 'nproc', Soft: WORKER_PROCESS_CAP, Hard: WORKER_PROCESS_CAP },
        { Name: 'fsize', Soft: spec.maxFileSizeBytes, Hard: spec.maxFileSizeBytes },
        { Name: 'core', Soft: 0, Hard: 0 },
      ],
      AutoRemove: false,
    },
  };
}

function engineError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `no Docker engine reachable (${message})`;
}

export function dockerBackend(options: DockerOptions = {}): SandboxBackend {
  // dockerode (with ssh2 and gRPC) is loaded only when this backend is made, not by every command that imports it.
  const docker =
    options.docker ??
    new (createRequire(import.meta.url)('dockerode') as typeof Docker)({ timeout: options.pingTimeoutMs ?? 3000 });
  const image = options.image ?? DEFAULT_DOCKER_IMAGE;
  const python = options.python ?? 'python3';
  const memoryBytes = options.memoryBytes ?? 8 * 1024 ** 3;

  async function status(): Promise<BackendStatus> {
    try {
      await docker.ping();
    } catch (error) {
      return { available: false, reason: engineError(error) };
    }
    try {
      await docker.getImage(image).inspect();
    } catch (error) {
      return {
        available: false,
        reason: `the Docker image ${image} is not present (docker pull ${image}): ${(error as Error).message}`,
      };
    }
    const version = await docker.version().catch(() => null);
    return { available: true, detail: `Docker engine ${version?.Version ?? 'unknown'}, image ${image}` };
  }

  return {
    name: 'docker',
    isolated: true,
    status,
    async launch(spec: WorkerLaunch) {
      const found = await status();
      if (!found.available) throw new SandboxUnavailableError('docker', found.reason ?? 'unknown');
      const container = await docker.createContainer(containerOptions(spec, { image, python, memoryBytes }));
      const stream = await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      docker.modem.demuxStream(stream, stdout, stderr);
      stream.on('end', () => {
        stdout.end();
        stderr.end();
      });
      await container.start();
      const stdin = new PassThrough();
      stdin.pipe(stream as unknown as NodeJS.WritableStream);
      const exited: Promise<WorkerExit> = container
        .wait()
        .then((r: { StatusCode?: number }) => ({ code: r.StatusCode ?? null, signal: null }))
        .catch((error: Error) => ({ code: null, signal: `wait failed: ${error.message}` }));
      let killed = false;
      return {
        stdin,
        stdout,
        stderr,
        kill: () => {
          if (killed) return;
          killed = true;
          container.kill().catch(() => undefined);
        },
        exited,
        cleanup: async () => {
          await container.remove({ force: true }).catch(() => undefined);
        },
      };
    },
  };
}
