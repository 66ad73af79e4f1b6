/**
 * Commands contributed by the oracle families and reports. Each registrar receives the program and
 * its `check` / `eval` groups and adds its subcommands; add one import and one entry per module.
 */
import { registerBench } from './bench.ts';
import { registerDataCheck } from './data-check.ts';
import { registerEvalBird } from './eval-bird.ts';
import { registerEvalCypherbench } from './eval-cypherbench.ts';
import { registerPythonCommands } from './eval-python.ts';
import { registerOptimizeHero } from './optimize-hero.ts';
import { registerOptimizeMetaHarness } from './optimize-meta-harness.ts';
import { registerReports } from './report.ts';
import { registerSplit } from './split.ts';
import type { Registrar } from './registrar.ts';

// Command modules import their types from ./registrar.ts (not from here), so no import cycle forms.
export type { Registrar } from './registrar.ts';

export const REGISTRARS: Registrar[] = [
  registerBench,
  registerOptimizeHero,
  registerOptimizeMetaHarness,
  registerSplit,
  registerEvalBird,
  registerReports,
  registerPythonCommands,
  registerEvalCypherbench,
  registerDataCheck,
];
