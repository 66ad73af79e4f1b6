/** The cap on the size of a candidate program: beyond it the program is refused before it is sent to the sandbox. */
import type { VerdictError } from '../../core/types.ts';
import { formatBytes, MIB } from '../../core/sandbox/limits.ts';

/** Default cap on a candidate program's UTF-8 size (16 MiB; the worker itself takes at most 256 MiB per phase). */
export const DEFAULT_MAX_PROGRAM_BYTES = 16 * MIB;

/** The `too-complex` error for a program over `maxBytes`, or null when it is within the cap. */
export function oversizedProgram(source: string, maxBytes: number): VerdictError | null {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes <= maxBytes) return null;
  const size = bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${bytes} bytes`;
  return {
    kind: 'too-complex',
    message: `the program is ${size}, over the ${formatBytes(maxBytes)} cap on program size (maxProgramBytes); it was not run`,
  };
}

/** Validates a maxProgramBytes option; the error names it. */
export function checkMaxProgramBytes(value: number | undefined): number {
  const bytes = value ?? DEFAULT_MAX_PROGRAM_BYTES;
  if (!Number.isInteger(bytes) || bytes <= 0)
    throw new Error(`maxProgramBytes must be a positive integer, got ${String(value)}`);
  return bytes;
}
