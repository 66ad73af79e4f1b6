/**
 * DSCodeBench tasks from its JSON Lines file (`DS_bench.json` / `DSCodeBench.json`): problem_id,
 * library, code_problem (the statement), ground_truth_code (the reference), test_script (defines
 * `test_case_input_generator(n=200)`). A broken line becomes an issue naming file and line.
 */
import { basename } from 'node:path';
import type { LoadedTasks, Task } from '../../../core/types.ts';
import { readJsonl, stringFields } from '../jsonl.ts';

export const DSCODEBENCH_FIELDS = ['problem_id', 'library', 'code_problem', 'ground_truth_code', 'test_script'] as const;

export function loadDsCodeBench(path: string, benchmark = 'dscodebench'): LoadedTasks {
  const { records, issues: parseIssues } = readJsonl(path);
  const name = basename(path);
  const issues = parseIssues.map((i) => ({ item: `${name}:${i.line}`, message: i.message }));
  const tasks: Task[] = [];
  const seen = new Set<string>();
  for (const { line, value } of records) {
    const { fields, missing } = stringFields(value, DSCODEBENCH_FIELDS);
    const item = `${name}:${line}`;
    if (missing.length) {
      issues.push({ item, message: `missing or non-string field(s): ${missing.join(', ')}` });
      continue;
    }
    if (!/test_case_input_generator/.test(fields.test_script)) {
      issues.push({ item, message: `test_script of problem ${fields.problem_id} defines no test_case_input_generator` });
      continue;
    }
    if (seen.has(fields.problem_id)) {
      issues.push({ item, message: `problem_id ${fields.problem_id} appears twice` });
      continue;
    }
    seen.add(fields.problem_id);
    tasks.push({
      id: fields.problem_id,
      benchmark,
      description: fields.code_problem,
      gold: fields.ground_truth_code,
      context: { library: fields.library, testScript: fields.test_script },
      meta: { source: name, line },
    });
  }
  return { tasks, issues };
}
