/**
 * Benchmark specs by name — tasks, oracle and seed prompt, without strategies — for commands that
 * run outside vitest (`witness optimize hero --suite NAME`). Each `*.eval.ts` declares its suite
 * from the same spec.
 */
import { fileURLToPath } from 'node:url';
import type { Oracle, PreparedTask } from '../core/oracle.ts';
import type { LoadedTasks } from '../core/types.ts';
import { loadNlRx } from '../oracles/regex/nlrx.ts';
import { regexOracle } from '../oracles/regex/oracle.ts';

export interface BenchmarkSpec {
  name: string;
  tasks: LoadedTasks;
  oracle: Oracle<PreparedTask>;
  /** Path of the seed prompt template. */
  prompt: string;
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The nl-rx fixture tasks with the regex oracle (ECMAScript answers, brics golds). */
export function nlRxSpec(): BenchmarkSpec {
  return {
    name: 'nl-rx',
    tasks: loadNlRx(here('../fixtures/nl-rx')),
    oracle: regexOracle() as unknown as Oracle<PreparedTask>,
    prompt: here('../prompts/nl-rx.md'),
  };
}

export const SPECS: Record<string, () => BenchmarkSpec> = {
  'nl-rx': nlRxSpec,
};

/** A spec by name; an unknown name is an error listing the known ones. */
export function specByName(name: string): BenchmarkSpec {
  const factory = SPECS[name];
  if (!factory) throw new Error(`unknown suite "${name}" (known: ${Object.keys(SPECS).sort().join(', ')})`);
  return factory();
}
