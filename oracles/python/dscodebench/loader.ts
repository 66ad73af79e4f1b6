/**
 * DSCodeBench tasks from its JSON Lines file (`DS_bench.json` / `DSCodeBench.json`): problem_id,
 * library, code_problem (the statement), ground_truth_code (the reference), test_script (defines
 * `test_case_input_generator(n=200)`). A broken line becomes an issue naming file and line.
 */
import type { LoadedTasks } from '../../../core/types.ts';
import { loadJsonlTasks } from '../jsonl.ts';

export const DSCODEBENCH_FIELDS = [
  'problem_id',
  'library',
  'code_problem',
  'ground_truth_code',
  'test_script',
] as const;

export function loadDsCodeBench(path: string, benchmark = 'dscodebench'): LoadedTasks {
  return loadJsonlTasks(path, DSCODEBENCH_FIELDS, 'problem_id', (fields) =>
    /test_case_input_generator/.test(fields.test_script)
      ? {
          id: fields.problem_id,
          benchmark,
          description: fields.code_problem,
          gold: fields.ground_truth_code,
          context: { library: fields.library, testScript: fields.test_script },
        }
      : { problem: `test_script of problem ${fields.problem_id} defines no test_case_input_generator` },
  );
}
