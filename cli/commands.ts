/**
 * Commands contributed by the oracle families and reports. Each registrar receives the program and
 * its `check` / `eval` groups and adds its subcommands; add one import and one entry per module.
 */
import type { Command } from 'commander';

export interface CommandGroups {
  program: Command;
  check: Command;
  evaluate: Command;
}

export type Registrar = (groups: CommandGroups) => void;

export const REGISTRARS: Registrar[] = [];
