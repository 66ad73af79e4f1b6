/**
 * Choosing a sandbox backend. `auto` (the default) takes bwrap where it works, else Docker where an
 * engine is reachable, else refuses with both reasons: it never falls back to the `process`
 * backend silently, because that one is not a security boundary. `WITNESS_PYTHON_SANDBOX` names
 * the backend from the environment.
 */
import { SandboxUnavailableError, type BackendName, type SandboxBackend } from './backend.ts';
import { bwrapBackend } from './bwrap.ts';
import { dockerBackend, type DockerOptions } from './docker.ts';
import type { PythonSettings } from '../../../core/config-sections.ts';
import type { InterpreterSettings } from './interpreter.ts';
import { processBackend } from './process.ts';

export type BackendChoice = BackendName | 'auto';

export const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', 'bwrap', 'docker', 'process'];

export interface BackendOptions {
  /** The interpreter's path; default: the one `interpreter` chooses. */
  python?: string;
  /** The settings that choose the interpreter (default: the configuration's defaults). */
  interpreter?: InterpreterSettings;
  docker?: DockerOptions;
}

/** The sandbox options of the configured `python` section: its backend and interpreter. */
export function configuredSandbox(python: PythonSettings): {
  backend: BackendChoice;
  interpreter: InterpreterSettings;
} {
  const { interpreter, fullProfileDir } = python;
  return { backend: python.sandbox, interpreter: { fullProfileDir, ...(interpreter ? { interpreter } : {}) } };
}

/** Parses a backend name (e.g. from WITNESS_PYTHON_SANDBOX); the error lists the choices. */
export function parseBackendChoice(value: string | undefined): BackendChoice {
  if (value === undefined || value === '') return 'auto';
  if ((BACKEND_CHOICES as readonly string[]).includes(value)) return value as BackendChoice;
  throw new Error(`unknown Python sandbox "${value}" (choose one of: ${BACKEND_CHOICES.join(', ')})`);
}

/** The backend to use; for `auto`, the first available of bwrap and docker. */
export async function resolveBackend(
  choice: BackendChoice = 'auto',
  options: BackendOptions = {},
): Promise<SandboxBackend> {
  const python = {
    ...(options.python ? { python: options.python } : {}),
    ...(options.interpreter ? { interpreter: options.interpreter } : {}),
  };
  if (choice === 'bwrap') return bwrapBackend(python);
  if (choice === 'docker') return dockerBackend(options.docker);
  if (choice === 'process') return processBackend(python);
  const bwrap = bwrapBackend(python);
  const bwrapStatus = await bwrap.status();
  if (bwrapStatus.available) return bwrap;
  const docker = dockerBackend(options.docker);
  const dockerStatus = await docker.status();
  if (dockerStatus.available) return docker;
  throw new SandboxUnavailableError(
    'bwrap',
    `${bwrapStatus.reason}; docker: ${dockerStatus.reason}. ` +
      'Install bubblewrap (apt-get install bubblewrap), or set WITNESS_PYTHON_SANDBOX=process to run without isolation (not a security boundary).',
  );
}
