/** Environments for the child processes tests and perf scripts start (bench runs, vitest, the CLI). */
import { SUITE_DATA_ENV } from '../core/config-sections.ts';

/** The variables that point a suite at real data or pick a split: a child inheriting them would run the full dataset. */
export const DATA_VARIABLES: readonly string[] = [...Object.values(SUITE_DATA_ENV), 'NLRX_TURK_DIR', 'WITNESS_SPLIT'];

/**
 * A copy of `env` without DATA_VARIABLES, so a child's bench run stays on the fixtures unless the
 * caller sets one on purpose (in `extra`, applied after).
 */
export function withoutSuiteData(
  env: NodeJS.ProcessEnv = process.env,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const copy: NodeJS.ProcessEnv = { ...env };
  for (const name of DATA_VARIABLES) delete copy[name];
  return { ...copy, ...extra };
}
