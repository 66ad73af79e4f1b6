/**
 * `witness eval bigcodebench` and `witness eval dscodebench`: score a samples file against a
 * dataset file the way the official evaluators do, in the Python sandbox; pass@k and per-task
 * results (failing test names, or failing generated inputs), with tasks whose libraries are
 * missing listed apart.
 */
import { Option, type Command } from 'commander';
import type { Candidate, Verdict } from '../core/types.ts';
import { sampleSolution } from '../oracles/python/bigcodebench/program.ts';
import type { Evaluation, SampleProgram } from '../oracles/python/evaluate.ts';
import { extractPython } from '../oracles/python/extract.ts';
import { jsonKind } from '../oracles/python/jsonl.ts';
import { loadConfig, type PythonSettings, type WitnessConfig } from '../core/config.ts';
import { BACKEND_CHOICES, configuredSandbox, type BackendChoice } from '../oracles/python/sandbox/select.ts';
import { sayResult } from './output.ts';
import type { CommandGroups } from './registrar.ts';
import { existingPath, positiveInteger, positiveNumber, progressLine } from './options.ts';

interface CommonOptions {
  data: string;
  samples: string;
  json?: boolean;
  sandbox?: BackendChoice;
  workers?: number;
}

function progress(): { onProgress?: (done: number, total: number) => void } {
  const onProgress = progressLine('tasks');
  return onProgress ? { onProgress } : {};
}

/** The evaluation as text: pass@k, then one line per task. */
export function formatEvaluation(evaluation: Evaluation): string {
  const lines: string[] = [];
  const rates = Object.entries(evaluation.passAt).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}%`);
  lines.push(
    `${evaluation.benchmark}: ${rates.join(', ') || 'no task evaluated'} over ${evaluation.evaluatedTasks} of ${evaluation.tasks} tasks (${evaluation.samples} samples)`,
  );
  const unsampled = evaluation.results.filter((r) => r.status === 'no-samples').length;
  if (unsampled) lines.push(`  ${unsampled} task(s) without samples (not scored)`);
  for (const r of evaluation.results) {
    if (r.status === 'no-samples') continue;
    if (r.status !== 'evaluated') {
      lines.push(`  ${r.taskId}: ${r.status}${r.message ? ` — ${r.message}` : ''}`);
      continue;
    }
    for (const s of r.samples) {
      const failing = s.failing.length
        ? ` failing: ${s.failing.slice(0, 6).join(', ')}${s.failing.length > 6 ? ', …' : ''}`
        : '';
      lines.push(
        `  ${r.taskId}: ${s.status} (${s.passed}/${s.total})${failing}${s.error ? ` — ${s.error.split('\n')[0]}` : ''}`,
      );
    }
  }
  for (const issue of evaluation.issues) lines.push(`  issue: ${issue.item}: ${issue.message}`);
  return lines.join('\n');
}

function sandboxOptions(o: CommonOptions, python: PythonSettings) {
  return {
    sandbox: {
      ...configuredSandbox(python),
      ...(o.sandbox ? { backend: o.sandbox } : {}),
      ...(o.workers ? { size: o.workers } : {}),
    },
  };
}

function testDetail(verdict: Verdict, caseId: string): string {
  const witness = verdict.witnesses.find((w) => w.caseId === caseId);
  const actual = witness?.actual as { type?: string; message?: string; traceback?: string } | undefined;
  if (!actual) return verdict.error ? verdict.error.message : 'did not pass';
  return actual.traceback ?? `${actual.type}: ${actual.message}`;
}

function inputDetail(verdict: Verdict, caseId: string): string {
  const witness = verdict.witnesses.find((w) => w.caseId === caseId);
  if (!witness) return '';
  return `input ${String(witness.input)}: expected ${String(witness.expected)}, got ${String(witness.actual)}`;
}

/** Scores BigCodeBench samples (task_id + solution, or + completion); unset options come from `config`. */
export async function evaluateBigCodeBench(
  o: CommonOptions & { calibrated: boolean; timeLimit?: number },
  config: WitnessConfig,
): Promise<Evaluation> {
  const { loadBigCodeBench } = await import('../oracles/python/bigcodebench/loader.ts');
  const { bigCodeBenchOracle } = await import('../oracles/python/bigcodebench/oracle.ts');
  const { evaluateSamples, readSamples } = await import('../oracles/python/evaluate.ts');
  const loaded = loadBigCodeBench(o.data);
  const prompts = new Map(loaded.tasks.map((t) => [t.id, String(t.context?.completePrompt ?? '')] as const));
  const { samples, issues } = readSamples(o.samples, 'task_id', (sample) => {
    const solution = sampleSolution(sample, prompts.get(String(sample.task_id)) ?? '');
    return typeof solution === 'string'
      ? { source: solution, extraction: 'whole-reply' }
      : { ...solution, malformed: true };
  });
  const timeLimit = o.timeLimit ?? config.suites.bigcodebench.timeoutPerTaskS;
  const oracle = bigCodeBenchOracle({
    calibrated: o.calibrated,
    ...(timeLimit ? { timeLimitS: timeLimit } : {}),
    ...sandboxOptions(o, config.python),
  });
  try {
    return await evaluateSamples({
      benchmark: 'bigcodebench',
      loaded,
      samples,
      sampleIssues: issues,
      oracle,
      describe: testDetail,
      ...progress(),
    });
  } finally {
    await oracle.dispose?.();
  }
}

/** Scores DSCodeBench samples (problem_id + solution code, or + the model's response, whose first code block counts); the sandbox defaults to `python`'s. */
export async function evaluateDsCodeBench(
  o: CommonOptions & { timeLimit?: number; noOpFloatBranches?: boolean },
  python: PythonSettings,
): Promise<Evaluation> {
  const { loadDsCodeBench } = await import('../oracles/python/dscodebench/loader.ts');
  const { dsCodeBenchOracle } = await import('../oracles/python/dscodebench/oracle.ts');
  const { evaluateSamples, readSamples } = await import('../oracles/python/evaluate.ts');
  const loaded = loadDsCodeBench(o.data);
  const { samples, issues } = readSamples(o.samples, 'problem_id', (sample): SampleProgram => {
    if (typeof sample.solution === 'string') return { source: sample.solution, extraction: 'whole-reply' };
    if (typeof sample.response === 'string')
      return (
        extractPython(sample.response, 'first') ?? { problem: 'has no Python code in its "response"', malformed: false }
      );
    const [field, value] =
      sample.solution !== undefined ? ['solution', sample.solution] : ['response', sample.response];
    if (value !== undefined)
      return { problem: `has a "${field}" that is ${jsonKind(value)}, not a string`, malformed: true };
    return { problem: 'has no "solution" or "response" string', malformed: true };
  });
  const oracle = dsCodeBenchOracle({
    ...(o.timeLimit ? { candidateDeadlineMs: o.timeLimit * 1000 } : {}),
    comparator: { noOpFloatBranches: Boolean(o.noOpFloatBranches) },
    ...sandboxOptions(o, python),
  });
  try {
    return await evaluateSamples({
      benchmark: 'dscodebench',
      loaded,
      samples,
      sampleIssues: issues,
      oracle,
      describe: inputDetail,
      ...progress(),
    });
  } finally {
    await oracle.dispose?.();
  }
}

function common(command: Command): Command {
  return command
    .option('--json', 'print pass@k and per-task results as JSON')
    .addOption(
      new Option(
        '--sandbox <backend>',
        'Python sandbox (default: WITNESS_PYTHON_SANDBOX, else auto = bwrap, then docker)',
      ).choices([...BACKEND_CHOICES]),
    )
    .option('--workers <n>', 'warm sandboxed Python workers', positiveInteger);
}

function print(json: boolean | undefined, evaluation: Evaluation): void {
  sayResult(json, evaluation, () => formatEvaluation(evaluation));
}

/** Registers `eval bigcodebench` and `eval dscodebench`. */
export function registerPythonCommands({ evaluate }: CommandGroups): void {
  common(
    evaluate
      .command('bigcodebench')
      .description(
        "run BigCodeBench samples (task_id + solution) against the tasks' unittest suites in the Python sandbox: pass@k and the failing test names",
      )
      .requiredOption('--data <file>', 'BigCodeBench tasks, JSON Lines (.jsonl or .jsonl.gz)', existingPath)
      .requiredOption(
        '--samples <file>',
        'samples, JSON Lines: {"task_id", "solution"} (or "completion", appended to complete_prompt)',
        existingPath,
      )
      .option('--no-calibrated', 'run the solution alone, without the code_prompt preamble and stub')
      .option(
        '--time-limit <seconds>',
        'the per-task limit before the reference time is added (official: 240)',
        positiveNumber,
      ),
  ).action(async (o: CommonOptions & { calibrated: boolean; timeLimit?: number }) => {
    print(o.json, await evaluateBigCodeBench(o, loadConfig(process.cwd()).config));
  });
  common(
    evaluate
      .command('dscodebench')
      .description(
        'run DSCodeBench samples (problem_id + solution) on the 200 seeded inputs of each task against its reference in the Python sandbox: pass@k and the failing inputs',
      )
      .requiredOption('--data <file>', 'DSCodeBench tasks, JSON Lines (.json, .jsonl or .gz)', existingPath)
      .requiredOption(
        '--samples <file>',
        'samples, JSON Lines: {"problem_id", "solution"} (or "response": its first code block is used)',
        existingPath,
      )
      .option('--time-limit <seconds>', 'limit of a candidate over all 200 inputs (official: 200)', positiveNumber)
      .option(
        '--replicate-no-op-float-branches',
        'replicate the original comparator bug: same-typed floats, tensors and masked arrays always match',
      ),
  ).action(async (o: CommonOptions & { timeLimit?: number; replicateNoOpFloatBranches?: boolean }) => {
    const { python } = loadConfig(process.cwd()).config;
    print(
      o.json,
      await evaluateDsCodeBench({ ...o, noOpFloatBranches: Boolean(o.replicateNoOpFloatBranches) }, python),
    );
  });
}
