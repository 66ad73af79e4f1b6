/**
 * Regex matching for the grep tool under a time limit: the agent's pattern runs in a vm context
 * with a timeout, so a pattern that backtracks catastrophically (`(a+)+$`) ends with an error
 * instead of stalling the search.
 */
import vm from 'node:vm';

/** The pattern ran out of its time. */
export class MatchTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`the pattern ran longer than ${ms} ms (a pattern that backtracks heavily?): simplify it`);
    this.name = 'MatchTimeoutError';
  }
}

const SCRIPT = new vm.Script(
  '(() => { const hits = []; for (let i = 0; i < lines.length && hits.length < max; i++) if (regex.test(lines[i])) hits.push(i); return hits.join(","); })()',
);

/** Matches lines against `regex` within a total of `budgetMs` over all calls. */
export function timedMatcher(regex: RegExp, budgetMs: number) {
  const context = vm.createContext({ regex, lines: [] as string[], max: 0 });
  let left = budgetMs;
  return {
    /** Indexes of the first `max` matching lines. */
    match(lines: string[], max: number): number[] {
      if (left <= 0) throw new MatchTimeoutError(budgetMs);
      context.lines = lines;
      context.max = max;
      const started = performance.now();
      let joined: string;
      try {
        joined = SCRIPT.runInContext(context, { timeout: Math.max(1, Math.ceil(left)) }) as string;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
          throw new MatchTimeoutError(budgetMs);
        throw error;
      } finally {
        left -= performance.now() - started;
      }
      return joined === '' ? [] : joined.split(',').map(Number);
    },
  };
}
