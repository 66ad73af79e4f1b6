/**
 * Which Python the sandbox runs: WITNESS_PYTHON when set, else the full profile's virtualenv when it
 * has been built (`npm run setup -- --python full`: BigCodeBench's pinned requirements and
 * DSCodeBench's ten libraries, in .witness/python-full or WITNESS_PYTHON_FULL_DIR), else Debian's
 * /usr/bin/python3 with its numpy, pandas, scipy and scikit-learn.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SYSTEM_PYTHON = '/usr/bin/python3';

const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Written by the setup script once the full profile is completely installed. */
export const FULL_PROFILE_STAMP = '.witness-requirements';

type Env = Record<string, string | undefined>;

/** The folder of the full profile's virtualenv (built or not). */
export function fullProfileDir(env: Env = process.env): string {
  return resolve(PROJECT_ROOT, env.WITNESS_PYTHON_FULL_DIR || '.witness/python-full');
}

export interface Interpreter {
  python: string;
  /** Where the choice came from: `WITNESS_PYTHON`, `full profile` or `system`. */
  source: 'WITNESS_PYTHON' | 'full profile' | 'system';
}

/** The interpreter for the sandbox; a WITNESS_PYTHON that does not exist is an error naming it. */
export function sandboxInterpreter(env: Env = process.env): Interpreter {
  const named = env.WITNESS_PYTHON;
  if (named) {
    if (!existsSync(named)) throw new Error(`WITNESS_PYTHON names ${named}, which does not exist`);
    return { python: named, source: 'WITNESS_PYTHON' };
  }
  const full = fullProfileDir(env);
  const python = join(full, 'bin', 'python3');
  if (existsSync(join(full, FULL_PROFILE_STAMP)) && existsSync(python)) return { python, source: 'full profile' };
  return { python: SYSTEM_PYTHON, source: 'system' };
}
