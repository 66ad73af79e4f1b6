/**
 * Commands contributed by the oracle families and reports. Each registrar receives the program and
 * its `check` / `eval` groups and adds its subcommands; add one entry per module, naming the
 * commands it adds, so a command line loads only the modules of the command it runs (start-up).
 */
import type { Registrar } from './registrar.ts';

// Command modules import their types from ./registrar.ts (not from here), so no import cycle forms.
export type { Registrar } from './registrar.ts';

export interface CommandModule {
  /** The commands the module adds, as typed: `bench`, `eval bird`, `check bigcodebench`. */
  commands: readonly string[];
  load: () => Promise<Registrar>;
}

export const COMMAND_MODULES: readonly CommandModule[] = [
  { commands: ['bench'], load: async () => (await import('./bench.ts')).registerBench },
  { commands: ['optimize hero'], load: async () => (await import('./optimize-hero.ts')).registerOptimizeHero },
  {
    commands: ['optimize meta-harness'],
    load: async () => (await import('./optimize-meta-harness.ts')).registerOptimizeMetaHarness,
  },
  { commands: ['split'], load: async () => (await import('./split.ts')).registerSplit },
  { commands: ['eval bird'], load: async () => (await import('./eval-bird.ts')).registerEvalBird },
  {
    commands: ['report', 'gate', 'baseline'],
    load: async () => (await import('./report.ts')).registerReports,
  },
  {
    commands: ['eval bigcodebench', 'eval dscodebench'],
    load: async () => (await import('./eval-python.ts')).registerPythonCommands,
  },
  {
    commands: ['eval cypherbench'],
    load: async () => (await import('./eval-cypherbench.ts')).registerEvalCypherbench,
  },
  { commands: ['data check'], load: async () => (await import('./data-check.ts')).registerDataCheck },
];

/**
 * The modules a command line needs: those adding the command it names (`eval bird`), all of a group
 * when only the group is named (`eval --help`), and every module when no known command is named
 * (`witness --help`, a typo), so help and errors list everything.
 */
export function modulesFor(words: readonly string[]): readonly CommandModule[] {
  const [first, second] = words;
  const exact = COMMAND_MODULES.filter((m) =>
    m.commands.some((c) => c === first || (second !== undefined && c === `${first} ${second}`)),
  );
  if (exact.length) return exact;
  const group = COMMAND_MODULES.filter((m) => m.commands.some((c) => c.startsWith(`${first} `)));
  return group.length ? group : COMMAND_MODULES;
}
