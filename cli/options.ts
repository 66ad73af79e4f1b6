/** Option parsers and the progress line shared by the commands. A bad value is a usage error (exit 2). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';

/** A usage error: printed with the command's help hint and exit status 2. */
export function usageError(message: string): Error {
  return Object.assign(new Error(message), { code: 'commander.usage' });
}

/** A file or folder that exists (an option's parser): a path that names nothing is a usage error, before any work starts. */
export function existingPath(value: string): string {
  if (!existsSync(value)) throw new InvalidArgumentError(`there is no file or folder ${resolve(value)}`);
  return value;
}

/** The same for a command's argument: a usage error naming the path. */
export function existingFile(value: string): string {
  if (!existsSync(value)) throw usageError(`there is no file ${resolve(value)}`);
  return value;
}

export function nonNegativeInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new InvalidArgumentError('expected a positive number');
  return n;
}

export function fraction(value: string): number {
  const n = Number(value);
  if (!(n > 0 && n < 1)) throw new InvalidArgumentError('expected a number between 0 and 1');
  return n;
}

/** A share from 0 to 1 inclusive (e.g. a margin on a pass rate). */
export function proportion(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
}

function formatElapsed(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/**
 * A progress line ("evaluated 5/10 questions (1.2 s)") for runs longer than a second, at most every
 * 200 ms, ending the line when done — and only on a terminal, so logs and pipes stay clean.
 */
export function progressLine(
  noun: string,
  stream: { isTTY?: boolean; write(text: string): unknown } = process.stderr,
  clock: () => number = () => performance.now(),
): ((done: number, total: number) => void) | undefined {
  if (!stream.isTTY) return undefined;
  const started = clock();
  let last = 0;
  let shown = false;
  return (done, total) => {
    const now = clock();
    if (done < total && (now - started < 1000 || now - last < 200)) return;
    if (done === total && !shown) return;
    last = now;
    shown = true;
    stream.write(
      `\r\x1b[2Kevaluated ${done}/${total} ${noun} (${formatElapsed(now - started)})${done === total ? '\n' : ''}`,
    );
  };
}
