/**
 * What the sandbox's Python can import. A task whose libraries are missing is an environment
 * problem, reported as "environment missing <lib>" (a harness error naming the library), never as
 * a model failure.
 */
import { findEvent } from './pool/outcome.ts';
import type { WorkerPool } from './pool/pool.ts';
import { sandboxInterpreter } from './sandbox/interpreter.ts';
import { DEFAULT_LIMITS } from '../../core/sandbox/limits.ts';

export interface ModuleStatus {
  available: boolean;
  version: string | null;
  error?: string;
}

export interface PythonEnvironment {
  python: string;
  modules: Record<string, ModuleStatus>;
}

/** A task needs libraries the sandbox's Python does not have. */
export class EnvironmentMissingError extends Error {
  constructor(
    readonly task: string,
    readonly missing: string[],
  ) {
    super(
      `environment missing ${missing.join(', ')} (task ${task} needs ${missing.length === 1 ? 'it' : 'them'}; ${installHint(missing)})`,
    );
    this.name = 'EnvironmentMissingError';
  }
}

const PACKAGES: Record<string, { apt?: string; pip: string }> = {
  numpy: { apt: 'python3-numpy', pip: 'numpy' },
  pandas: { apt: 'python3-pandas', pip: 'pandas' },
  scipy: { apt: 'python3-scipy', pip: 'scipy' },
  sklearn: { apt: 'python3-sklearn', pip: 'scikit-learn' },
  matplotlib: { apt: 'python3-matplotlib', pip: 'matplotlib' },
  seaborn: { apt: 'python3-seaborn', pip: 'seaborn' },
  skimage: { apt: 'python3-skimage', pip: 'scikit-image' },
  PIL: { apt: 'python3-pil', pip: 'Pillow' },
  torch: { pip: 'torch' },
  tensorflow: { pip: 'tensorflow' },
  keras: { pip: 'keras' },
  lightgbm: { pip: 'lightgbm' },
};

function interpreterName(): string {
  try {
    return sandboxInterpreter().python;
  } catch {
    return "the sandbox's Python";
  }
}

function installHint(missing: string[]): string {
  const apt = missing.map((m) => PACKAGES[m]?.apt).filter((p): p is string => Boolean(p));
  const pip = missing.filter((m) => !PACKAGES[m]?.apt).map((m) => PACKAGES[m]?.pip ?? m);
  const parts = [];
  if (apt.length) parts.push(`apt-get install ${apt.join(' ')}`);
  if (pip.length) parts.push(`pip install ${pip.join(' ')} for ${interpreterName()}`);
  return `install with: ${parts.join('; ')}; or build the full profile: npm run setup -- --python full`;
}

/** DSCodeBench's library names (its `library` field) as module names; the standard library needs none. */
export function moduleForLibrary(library: string): string | null {
  const key = library
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const table: Record<string, string | null> = {
    numpy: 'numpy',
    pandas: 'pandas',
    scipy: 'scipy',
    'scikit-learn': 'sklearn',
    sklearn: 'sklearn',
    tensorflow: 'tensorflow',
    pytorch: 'torch',
    torch: 'torch',
    matplotlib: 'matplotlib',
    seaborn: 'seaborn',
    keras: 'keras',
    lightgbm: 'lightgbm',
    python: null,
    'standard-library': null,
    stdlib: null,
    '': null,
  };
  if (key in table) return table[key] ?? null;
  // An unknown library named like a module is checked as one; anything else is left to the imports.
  const name = library.trim();
  return /^[A-Za-z_][\w.]*$/.test(name) ? name : null;
}

/** Asks a sandboxed worker which of these modules (and of the modules these programs import) load. */
export async function describeEnvironment(
  pool: WorkerPool,
  modules: readonly string[],
  programs: readonly string[] = [],
): Promise<PythonEnvironment> {
  const [result] = await pool.run([
    {
      name: 'environment',
      kind: 'env.describe',
      payload: { modules, programs },
      limits: DEFAULT_LIMITS,
      deadlineMs: 60_000,
    },
  ]);
  const event = result ? findEvent(result, 'environment') : undefined;
  if (!event)
    throw new Error(
      `the sandbox could not describe its Python environment${result?.stderrTail ? `: ${result.stderrTail}` : ''}`,
    );
  return { python: String(event.python), modules: event.modules as Record<string, ModuleStatus> };
}

/** Names of the modules that do not load. */
export function missingModules(environment: PythonEnvironment): string[] {
  return Object.entries(environment.modules)
    .filter(([, status]) => !status.available)
    .map(([name]) => name);
}

/** One line per module for `describe`: "numpy 1.24.2", "scipy (missing)". */
export function formatModules(environment: PythonEnvironment, names: readonly string[]): string {
  return names
    .map((name) => {
      const status = environment.modules[name];
      if (!status) return `${name} (unknown)`;
      return status.available ? `${name} ${status.version ?? '(version unknown)'}` : `${name} (missing)`;
    })
    .join(', ');
}
