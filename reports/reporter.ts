/**
 * The Witness vitest reporter. Benchmark tests store their trajectory on `task.meta.witness`; this
 * reporter collects them (live in `onTestCaseResult`, and again from the finished modules in
 * `onTestRunEnd`, so `--merge-reports` loses nothing), prints one leaderboard table per
 * (benchmark, model), and writes `results.json` and `summary.md`.
 *
 * Use: `reporters: ['default', './reports/reporter.ts']`, or with options
 * `[['./reports/reporter.ts', { outDir: 'out' }]]`. Output directory: the `outDir` option
 * (relative to the vitest root), else `$WITNESS_OUT` (relative to the working directory), else
 * `witness-out/` under the vitest root. A run without trajectories prints and writes nothing.
 */
import { join, resolve } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { META_KEY } from '../core/meta.ts';
import type { Trajectory } from '../core/types.ts';
import { renderMarkdown } from './markdown.ts';
import { buildResults, writeFileAtomic, writeResultsFile } from './results-file.ts';
import { type HarnessErrorEntry, listHarnessErrors, summarize } from './summary.ts';
import { renderTables } from './table.ts';
import { trajectoryProblem } from './validate.ts';

export interface WitnessReporterOptions {
  /** Output directory, relative to the vitest root; overrides $WITNESS_OUT. */
  outDir?: string;
}

/** Identity of a trajectory: a test reported live and again after the run is counted once. */
export function trajectoryKey(t: Trajectory): string {
  return JSON.stringify([t.runId, t.benchmark, t.taskId, t.strategy, t.trial, t.model.name]);
}

/** A stable order (benchmark, model, strategy, task, trial, run) so live and merged runs write the same file. */
export function compareTrajectories(a: Trajectory, b: Trajectory): number {
  const ka = [a.benchmark, a.model.name, a.strategy, a.taskId];
  const kb = [b.benchmark, b.model.name, b.strategy, b.taskId];
  for (let i = 0; i < ka.length; i++) {
    const x = ka[i] as string;
    const y = kb[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.trial - b.trial || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0);
}

function formatHarnessErrors(errors: readonly HarnessErrorEntry[]): string {
  return [
    `Harness errors (${errors.length}, excluded from rates):`,
    ...errors.map((e) => `  ${e.benchmark}/${e.model}/${e.strategy} task ${e.taskId} trial ${e.trial}: ${e.message}`),
  ].join('\n');
}

export default class WitnessReporter implements Reporter {
  private readonly options: WitnessReporterOptions;
  private vitest: Vitest | undefined;
  private readonly collected = new Map<string, Trajectory>();
  /** Problems with unreadable `meta.witness` values, keyed by test so each is reported once. */
  private readonly problems = new Map<string, string>();

  constructor(options: WitnessReporterOptions = {}) {
    this.options = options ?? {};
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(): void {
    this.collected.clear();
    this.problems.clear();
  }

  onTestCaseResult(testCase: TestCase): void {
    this.guard('collect a trajectory', () => this.collect(testCase));
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    try {
      for (const module of testModules) for (const testCase of module.children.allTests()) this.collect(testCase);
      await this.report();
    } catch (error) {
      this.fail('write the report', error);
    }
  }

  private collect(testCase: TestCase): void {
    const value: unknown = testCase.meta()[META_KEY];
    if (value === undefined) return;
    const problem = trajectoryProblem(value);
    if (problem !== null) {
      this.problems.set(`${testCase.module.moduleId} > ${testCase.fullName}`, problem);
      return;
    }
    const trajectory = value as Trajectory;
    const key = trajectoryKey(trajectory);
    if (!this.collected.has(key)) this.collected.set(key, trajectory);
  }

  private async report(): Promise<void> {
    for (const [test, problem] of this.problems) {
      this.error(`Witness: ${test}: meta.${META_KEY} is not a usable trajectory: ${problem}`);
      process.exitCode = 1;
    }
    if (this.collected.size === 0) return;
    const trajectories = [...this.collected.values()].sort(compareTrajectories);
    const summary = summarize(trajectories);
    const harnessErrors = listHarnessErrors(trajectories);
    const lines = ['', renderTables(summary)];
    if (harnessErrors.length > 0) lines.push('', formatHarnessErrors(harnessErrors));
    const outDir = this.outDir();
    const resultsPath = join(outDir, 'results.json');
    const summaryPath = join(outDir, 'summary.md');
    await writeResultsFile(resultsPath, buildResults(summary, trajectories));
    await writeFileAtomic(summaryPath, renderMarkdown(summary, harnessErrors));
    lines.push('', `Witness results: ${resultsPath}`, `Witness summary: ${summaryPath}`, '');
    this.log(lines.join('\n'));
  }

  private outDir(): string {
    const root = this.vitest?.config.root ?? process.cwd();
    if (this.options.outDir) return resolve(root, this.options.outDir);
    const fromEnv = process.env.WITNESS_OUT;
    if (fromEnv) return resolve(fromEnv);
    return resolve(root, 'witness-out');
  }

  private guard(action: string, body: () => void): void {
    try {
      body();
    } catch (error) {
      this.fail(action, error);
    }
  }

  private fail(action: string, error: unknown): void {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.error(`Witness reporter: failed to ${action}: ${message}`);
    process.exitCode = 1;
  }

  private log(text: string): void {
    if (this.vitest) this.vitest.logger.log(text);
    else console.log(text);
  }

  private error(text: string): void {
    if (this.vitest) this.vitest.logger.error(text);
    else console.error(text);
  }
}
