/**
 * What the commands print. Their output holds text from outside (task ids, names, dataset and
 * model messages): printed text goes through terminalSafe, JSON through jsonForTerminal, so none
 * of it can carry an escape sequence, a control character or a bidi override to the terminal.
 */
import { jsonForTerminal, terminalSafe } from '../core/text-safety.ts';

/** Prints a line (or lines) on stdout. */
export function say(text: string): void {
  process.stdout.write(`${terminalSafe(text)}\n`);
}

/** Prints a line (or lines) on stderr. */
export function warn(text: string): void {
  process.stderr.write(`${terminalSafe(text)}\n`);
}

/** Prints `value` as indented JSON on stdout when `json`, else `text()`. */
export function sayResult(json: boolean | undefined, value: unknown, text: () => string): void {
  if (json) process.stdout.write(`${jsonForTerminal(value)}\n`);
  else say(text());
}
