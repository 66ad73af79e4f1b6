/**
 * Which Python the sandbox runs: `python.interpreter` (WITNESS_PYTHON) when set, else the full
 * profile's virtualenv when it has been built (`npm run setup -- --python full`: BigCodeBench's
 * pinned requirements and DSCodeBench's ten libraries, in `python.fullProfileDir`), else Debian's
 * /usr/bin/python3 with its numpy, pandas, scipy and scikit-learn.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PythonSettings } from '../../../core/config.ts';
import { witnessPath } from '../../../core/paths.ts';

export const SYSTEM_PYTHON = '/usr/bin/python3';

/** Written by the setup script once the full profile is completely installed. */
export const FULL_PROFILE_STAMP = '.witness-requirements';

/** The settings that choose the interpreter (`python.interpreter`, `python.fullProfileDir`). */
export type InterpreterSettings = Pick<PythonSettings, 'interpreter' | 'fullProfileDir'>;

/** Without settings: no named interpreter, the full profile in this folder's .witness/ (the configuration's defaults). */
const defaultSettings = (): InterpreterSettings => ({ fullProfileDir: witnessPath(process.cwd(), 'python-full') });

export interface Interpreter {
  python: string;
  /** Where the choice came from: `WITNESS_PYTHON`, `full profile` or `system`. */
  source: 'WITNESS_PYTHON' | 'full profile' | 'system';
}

/** The interpreter for the sandbox; a WITNESS_PYTHON that does not exist is an error naming it. */
export function sandboxInterpreter(settings: InterpreterSettings = defaultSettings()): Interpreter {
  const named = settings.interpreter;
  if (named) {
    if (!existsSync(named)) throw new Error(`WITNESS_PYTHON names ${named}, which does not exist`);
    return { python: named, source: 'WITNESS_PYTHON' };
  }
  const full = settings.fullProfileDir;
  const python = join(full, 'bin', 'python3');
  if (existsSync(join(full, FULL_PROFILE_STAMP)) && existsSync(python)) return { python, source: 'full profile' };
  return { python: SYSTEM_PYTHON, source: 'system' };
}
