/** The shape of a command module: it receives the program and its `check` / `eval` groups and adds subcommands. */
import type { Command } from 'commander';

export interface CommandGroups {
  program: Command;
  check: Command;
  evaluate: Command;
}

export type Registrar = (groups: CommandGroups) => void;
