/**
 * Why a Python program's sandbox phase failed as a whole, the same way for every Python benchmark:
 * a limit or signal stopped it, the sandbox refused it, it does not parse, it replaced the test
 * framework (only BigCodeBench's runner checks that), it raised at the top level (with the frames
 * of its own file), the task's own code failed, the worker reported a harness event, or it exited
 * without saying it was done.
 */
import type { VerdictError } from '../../core/types.ts';
import type { ResourceLimits } from '../../core/sandbox/limits.ts';
import {
  explainException,
  findEvent,
  harnessEventFailure,
  refusalFailure,
  silentExit,
  terminationFailure,
} from './pool/outcome.ts';
import type { PhaseResult } from './pool/protocol.ts';

/** A failure of the whole phase; `taskError` when the task's code failed rather than the program. */
export type ProgramFailure = VerdictError & { taskError?: true };

export interface ProgramFailureOptions {
  /** The file the program runs as, whose frames of a traceback are shown (`solution.py`). */
  file: string;
  /** Keep only this many of the last frame lines (all when absent). */
  lastFrameLines?: number;
  /** What was running when a limit stopped the phase, named in the message. */
  running?: string | null;
}

/** The lines of a traceback that name `file`, each with the source line after it. */
export function ownFrames(traceback: unknown, file: string): string[] {
  if (typeof traceback !== 'string') return [];
  const own = `File "${file}"`;
  return traceback.split('\n').filter((line, i, all) => line.includes(own) || (all[i - 1] ?? '').includes(own));
}

/** The first reason in the order above that a phase failed, or null when it finished. */
export function programFailure(
  result: PhaseResult,
  deadlineMs: number,
  limits: ResourceLimits,
  options: ProgramFailureOptions,
): ProgramFailure | null {
  const terminated = terminationFailure(result, deadlineMs, limits);
  if (terminated)
    return {
      kind: terminated.kind,
      message: options.running ? `${terminated.reason} while running ${options.running}` : terminated.reason,
    };
  const refused = refusalFailure(result);
  if (refused) return { kind: refused.kind, message: refused.reason };
  const syntax = findEvent(result, 'syntax-error');
  if (syntax) return { kind: 'syntax', message: `${String(syntax.type ?? 'SyntaxError')}: ${String(syntax.message)}` };
  const tampered = findEvent(result, 'tampered');
  if (tampered)
    return { kind: 'unsafe', message: `${String(tampered.message)}; a program may not change the test framework` };
  const program = findEvent(result, 'program-error');
  if (program) {
    const own = ownFrames(program.traceback, options.file);
    const frames = options.lastFrameLines === undefined ? own : own.slice(-options.lastFrameLines);
    const explained = explainException(String(program.type), String(program.message ?? ''), limits);
    return { kind: 'runtime', message: frames.length ? `${explained}\n${frames.join('\n')}` : explained };
  }
  const task = findEvent(result, 'task-error');
  if (task) return { kind: 'runtime', message: String(task.message), taskError: true };
  const harness = harnessEventFailure(result, limits);
  if (harness) return { kind: harness.kind, message: harness.reason };
  if (!findEvent(result, 'done')) return { kind: 'runtime', message: silentExit(result) };
  return null;
}
