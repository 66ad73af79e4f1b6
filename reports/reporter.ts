/**
 * The Witness vitest reporter. Benchmark tests store a compact copy of their trajectory on
 * `task.meta.witness` and where the full one is in the run store on `task.meta.witnessStored`
 * (core/meta.ts); this reporter collects them (live in `onTestCaseResult`, and again from the
 * finished modules in `onTestRunEnd`, so `--merge-reports` loses nothing), prints one leaderboard
 * table per (benchmark, model), and writes results.json, summary.md, report.json and report.html,
 * reading the full trajectories back from the store one at a time (the configured store folder
 * too, for blobs merged from other machines; see docs/scaling.md).
 * It keeps the ledger of planned episodes (reports/ledger.ts): every benchmark test carries the
 * plan of its episode from declaration on, so a test that timed out, never ran because its worker
 * died, or could not store its trajectory gets a harness-error trajectory that says why, and the
 * terminal, summary.md and results.json show planned against recorded.
 * It also says how much of a resumed run came from the run store, how many episodes a spent
 * budget skipped, and — when a baseline is configured (WITNESS_GATE_BASELINE or `gate.baseline`
 * in witness.config.json) — runs the regression gate and sets a failing exit code when it fails,
 * so a plain `npx vitest` (also after `--merge-reports`) can fail a CI job.
 *
 * Use: `reporters: ['default', './reports/reporter.ts']`, or with options
 * `[['./reports/reporter.ts', { outDir: 'out' }]]`. Output directory: the `outDir` option
 * (relative to the vitest root), else the configured `outDir` (WITNESS_OUT, else `outDir` of
 * witness.config.json, else `witness-out/`; see docs/configuration.md), the folder `witness report`
 * reads too. A run without trajectories prints and writes nothing.
 */
import { resolve } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, Vitest } from 'vitest/node';
import { BUDGET_SKIP_NOTE } from '../core/budget.ts';
import { loadConfig, type WitnessConfig } from '../core/config.ts';
import { META_KEY, PLANNED_META_KEY, STORED_META_KEY, type StoredRef } from '../core/meta.ts';
import { RESUMED_META_KEY } from '../core/resume.ts';
import { terminalLine, terminalSafe } from '../core/text-safety.ts';
import type { Trajectory } from '../core/types.ts';
import { FullTrajectories } from './full-trajectories.ts';
import { evaluateGate, type GateVerdict } from './gate.ts';
import { renderGateText } from './gate-format.ts';
import { runTotalLines } from './extra-tables.ts';
import { fateOf, type Ledger, ledgerLine, planOf, tallyLedger, type TestFacts } from './ledger.ts';
import { compareTrajectories, trajectoryKey } from './merge.ts';
import { outcomeOf, readGateInput } from './outcomes.ts';
import { combinedRunId } from './results-file.ts';
import { invalidDataHeading, invalidDataText, printable } from './format.ts';
import {
  type HarnessErrorEntry,
  type InvalidDataEntry,
  listHarnessErrors,
  listInvalidData,
  summarize,
} from './summary.ts';
import { renderTables } from './table.ts';
import { trajectoryProblem } from './validate.ts';
import { writeReports } from './write-reports.ts';

export { compareTrajectories, trajectoryKey } from './merge.ts';

export interface WitnessReporterOptions {
  /** Output directory, relative to the vitest root; overrides the configured `outDir` (and WITNESS_OUT). */
  outDir?: string;
}

function formatHarnessErrors(errors: readonly HarnessErrorEntry[]): string {
  return [
    `Harness errors (${errors.length}, excluded from rates):`,
    ...errors.map((e) =>
      terminalLine(`  ${e.benchmark}/${e.model}/${e.strategy} task ${e.taskId} trial ${e.trial}: ${e.message}`),
    ),
  ].join('\n');
}

/** Invalid-data items listed in the terminal; the reports list them all. */
const INVALID_LISTED = 50;

function formatInvalidData(entries: readonly InvalidDataEntry[]): string {
  const more = entries.length - INVALID_LISTED;
  return [
    `${invalidDataHeading(entries)}:`,
    ...entries.slice(0, INVALID_LISTED).map((e) => `  ${printable(invalidDataText(e))}`),
    ...(more > 0 ? [`  … and ${more} more: summary.md, report.html and results.json list them all`] : []),
  ].join('\n');
}

/** A vitest error as text: its message (or its type, all a merged blob may keep), and what caused it. */
function errorText(error: { message?: unknown; cause?: unknown; type?: unknown }): string {
  const message =
    typeof error.message === 'string' ? error.message : typeof error.type === 'string' ? error.type : 'an error';
  const cause = (error.cause as { message?: unknown } | undefined)?.message;
  return typeof cause === 'string' && cause !== message ? `${message}: ${cause}` : message;
}

/** A store reference from task meta, or undefined when it is missing or malformed (the compact copy is then used as it is). */
function storedRefOf(value: unknown): StoredRef | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  return typeof v.storeDir === 'string' &&
    typeof v.runId === 'string' &&
    typeof v.file === 'string' &&
    Number.isInteger(v.offset) &&
    Number.isInteger(v.bytes)
    ? (v as unknown as StoredRef)
    : undefined;
}

/**
 * The configuration of `root`, loaded now; a configuration that does not load throws its error
 * when a report needs it (the gate fails closed, the reports say why), not while vitest starts.
 */
function loadedNow(root: string): () => WitnessConfig {
  try {
    const { config } = loadConfig(root);
    return () => config;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

export default class WitnessReporter implements Reporter {
  private readonly options: WitnessReporterOptions;
  private vitest: Vitest | undefined;
  /**
   * The run's configuration, loaded once, when a report first needs it: after the run's global
   * setups, which may point the outputs elsewhere (the unit tests' temporary folders).
   */
  private configured: (() => WitnessConfig) | undefined;
  private readonly collected = new Map<string, Trajectory>();
  /** Where the full form of each collected compact trajectory is. */
  private readonly stored = new Map<string, StoredRef>();
  /** Keys of trajectories that a resumed run took from its store. */
  private readonly resumed = new Set<string>();
  /** Notes of tests the budget skipped, by test id. */
  private readonly budgetSkips = new Map<string, string>();
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
    this.stored.clear();
    this.resumed.clear();
    this.budgetSkips.clear();
    this.problems.clear();
  }

  onTestCaseResult(testCase: TestCase): void {
    this.guard('collect a trajectory', () => this.collect(testCase));
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
  ): Promise<void> {
    try {
      for (const module of testModules) for (const testCase of module.children.allTests()) this.collect(testCase);
      const ledger = this.account(testModules, unhandledErrors);
      await this.report(ledger);
    } catch (error) {
      this.fail('write the report', error);
    }
  }

  /**
   * The ledger of the planned episodes among these tests, with a harness-error trajectory collected
   * for each lost one; undefined when no test carries a plan (tests that set `meta.witness` by hand).
   */
  private account(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): Ledger | undefined {
    const runErrors = unhandledErrors.map(errorText);
    const episodes = [];
    for (const module of testModules)
      for (const testCase of module.children.allTests()) {
        const plan = planOf(testCase.meta()[PLANNED_META_KEY]);
        // Deselected before it ran (-t, .only elsewhere): not planned by this run.
        if (!plan || testCase.options.mode === 'skip' || testCase.options.mode === 'todo') continue;
        episodes.push({ plan, fate: fateOf(this.factsOf(testCase), runErrors) });
      }
    if (episodes.length === 0) return undefined;
    const { ledger, standIns } = tallyLedger(episodes);
    for (const t of standIns) if (!this.collected.has(trajectoryKey(t))) this.collected.set(trajectoryKey(t), t);
    if (ledger.lost > 0) process.exitCode = 1;
    return ledger;
  }

  private factsOf(testCase: TestCase): TestFacts {
    const result = testCase.result();
    const value: unknown = testCase.meta()[META_KEY];
    const unusable = value === undefined ? null : trajectoryProblem(value);
    return {
      state: result.state,
      ...(result.state === 'skipped' && result.note ? { note: result.note } : {}),
      errors: result.state === 'failed' ? result.errors.map(errorText) : [],
      recorded: value !== undefined && unusable === null,
      ...(unusable ? { unusable } : {}),
    };
  }

  private collect(testCase: TestCase): void {
    const meta = testCase.meta();
    const result = typeof testCase.result === 'function' ? testCase.result() : undefined;
    if (result?.state === 'skipped' && result.note?.startsWith(BUDGET_SKIP_NOTE))
      this.budgetSkips.set(testCase.id, result.note);
    const value: unknown = meta[META_KEY];
    if (value === undefined) return;
    const problem = trajectoryProblem(value);
    if (problem !== null) {
      this.problems.set(`${testCase.module.moduleId} > ${testCase.fullName}`, problem);
      return;
    }
    const trajectory = value as Trajectory;
    const key = trajectoryKey(trajectory);
    if (!this.collected.has(key)) {
      this.collected.set(key, trajectory);
      const ref = storedRefOf(meta[STORED_META_KEY]);
      if (ref) this.stored.set(key, ref);
    }
    if (meta[RESUMED_META_KEY] === true) this.resumed.add(key);
  }

  private async report(ledger: Ledger | undefined): Promise<void> {
    for (const [test, problem] of this.problems) {
      this.error(`Witness: ${test}: meta.${META_KEY} is not a usable trajectory: ${problem}`);
      process.exitCode = 1;
    }
    if (this.collected.size === 0 && this.budgetSkips.size === 0) return;
    const trajectories = [...this.collected.values()].sort(compareTrajectories);
    const runId = combinedRunId(trajectories);
    const lines = ['', renderTables(summarize(trajectories))];
    if (ledger) lines.push('', ledgerLine(ledger));
    const harnessErrors = listHarnessErrors(trajectories);
    if (harnessErrors.length > 0) lines.push('', formatHarnessErrors(harnessErrors));
    const invalidData = listInvalidData(trajectories);
    if (invalidData.length > 0) lines.push('', formatInvalidData(invalidData));
    if (this.resumed.size > 0) {
      lines.push(
        '',
        `Resumed run ${runId}: ${this.resumed.size} episodes taken from the run store, ${trajectories.length - this.resumed.size} run now.`,
      );
    }
    if (this.budgetSkips.size > 0) {
      const note = [...this.budgetSkips.values()][0] as string;
      lines.push(
        '',
        `Budget spent: ${this.budgetSkips.size} episodes were not run (${note.replace(/; episode (not run|abandoned)$/, '')}).`,
        `  Continue the run with a larger budget: witness bench --resume ${runId || '<run id>'} --budget <amount>`,
      );
    }
    const outDir = this.outDir();
    let gate: GateVerdict | undefined;
    try {
      gate =
        trajectories.length > 0 ? await this.gate(trajectories, resolve(outDir, 'results.json'), ledger) : undefined;
    } catch (error) {
      // A gate that cannot run fails closed, but the reports are still written.
      this.fail('run the regression gate', error);
    }
    if (trajectories.length > 0) {
      const started = performance.now();
      const written = await writeReports(outDir, trajectories, {
        ...(gate ? { gate } : {}),
        ...(ledger ? { ledger } : {}),
        fullSource: this.fullSource(),
      });
      lines.push('', ...runTotalLines(written.report.runs));
      lines.push(
        '',
        `Witness results: ${written.results}`,
        `Witness summary: ${written.summary}`,
        `Witness report: ${written.html}${written.reportData ? ` (trajectories in ${written.reportData}/, loaded per task)` : ''}`,
        `Witness reports written in ${((performance.now() - started) / 1000).toFixed(1)} s (${trajectories.length} episodes).`,
      );
    }
    if (gate) {
      lines.push('', renderGateText(gate));
      if (!gate.ok) process.exitCode = 1;
    }
    lines.push('');
    this.log(lines.join('\n'));
  }

  /** The regression gate against the configured baseline, or undefined when none is configured. */
  private async gate(
    trajectories: readonly Trajectory[],
    resultsPath: string,
    ledger: Ledger | undefined,
  ): Promise<GateVerdict | undefined> {
    const { baseline, ...policy } = this.config().gate;
    if (!baseline) return undefined;
    const base = await readGateInput(baseline);
    const candidate = {
      path: resultsPath,
      runId: combinedRunId(trajectories),
      instances: trajectories.map(outcomeOf),
      ...(ledger ? { ledger } : {}),
    };
    return evaluateGate(base, candidate, policy);
  }

  /** The full trajectories of the collected compact ones, from the stores the workers wrote (or the configured one). */
  private fullSource(): FullTrajectories {
    const source = new FullTrajectories([this.config().storeDir]);
    for (const [key, ref] of this.stored) {
      const compact = this.collected.get(key);
      if (compact) source.remember(compact, ref);
    }
    return source;
  }

  private outDir(): string {
    const root = this.vitest?.config.root ?? process.cwd();
    if (this.options.outDir) return resolve(root, this.options.outDir);
    // The configured outDir (WITNESS_OUT, else the file's outDir, else witness-out), as `witness report` reads it.
    return this.config().outDir;
  }

  private config(): WitnessConfig {
    return (this.configured ??= loadedNow(this.vitest?.config.root ?? process.cwd()))();
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

  // Everything printed may hold outside text (task ids, names, messages): no terminal controls.
  private log(text: string): void {
    if (this.vitest) this.vitest.logger.log(terminalSafe(text));
    else console.log(terminalSafe(text));
  }

  private error(text: string): void {
    if (this.vitest) this.vitest.logger.error(terminalSafe(text));
    else console.error(terminalSafe(text));
  }
}
