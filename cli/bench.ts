/**
 * `witness bench`: the benchmark suites (vitest project "bench"), with the run plumbing (resume,
 * trials, budget) and the selections (suites, strategies, tasks, a seeded sample, split, data)
 * turned into the environment variables the suites read, or a dry run that only counts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option } from 'commander';
import { parseBudget } from '../core/budget.ts';
import { loadConfig, type WitnessConfig } from '../core/config.ts';
import { SUITE_DATA_ENV, SUITE_NAMES, type SuiteName } from '../core/config-sections.ts';
import { RERUN_MODES } from '../core/resume.ts';
import { parseNameList } from '../core/selection.ts';
import { latestRunId, newRunId, RunStore } from '../core/store.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import {
  BUILT_IN_STRATEGY_NAMES,
  HARNESS_STRATEGY_PREFIX,
  harnessStrategyNames,
  isStrategyName,
} from '../strategies/names.ts';
import type { SuitePlan } from './bench-plan.ts';
import { positiveInteger, usageError } from './options.ts';
import type { Registrar } from './registrar.ts';

const ROOT = PACKAGE_ROOT;
const SUITE_FILE = /(?:^|[\\/])suites[\\/]([\w.-]+)\.eval\.ts$/;

interface BenchOptions {
  resume?: string;
  rerun?: string;
  trials?: number;
  budget?: string;
  suite?: string;
  strategies?: string;
  tasks?: string;
  limit?: number;
  split?: string;
  data?: string;
  dryRun?: boolean;
  json?: boolean;
}

const known = (): string[] => [...SUITE_NAMES].sort();

/** Built-in suites named by --suite (validated) and by suite files among the vitest arguments. */
function suitesOf(o: BenchOptions, args: readonly string[]): { option: string[]; inArgs: string[]; custom: boolean } {
  const option = o.suite ? parseOption(() => parseNameList(o.suite as string, '--suite')) : [];
  const unknown = option.filter((n) => !known().includes(n));
  if (unknown.length)
    throw usageError(`unknown suite ${unknown.map((n) => `"${n}"`).join(', ')} (known: ${known().join(', ')})`);
  const inArgs: string[] = [];
  let custom = false;
  for (const arg of args) {
    const match = SUITE_FILE.exec(arg);
    if (!match) continue;
    if (known().includes(match[1] as string)) inArgs.push(match[1] as string);
    else custom = true;
  }
  return { option, inArgs, custom };
}

function parseOption<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

/** The environment variables the options stand for, the suites they select, and the vitest arguments. */
function benchSettings(o: BenchOptions, args: readonly string[]) {
  const vars: Record<string, string> = {};
  if (o.rerun && !o.resume) throw usageError('--rerun needs --resume <run> (the run whose episodes to redo)');
  if (o.json && !o.dryRun) throw usageError('--json goes with --dry-run (a run writes its results as files)');
  if (o.budget !== undefined) {
    parseOption(() => parseBudget(o.budget as string, '--budget'));
    vars.WITNESS_BUDGET = o.budget;
  }
  if (o.trials !== undefined) vars.WITNESS_TRIALS = String(o.trials);
  const { option, inArgs, custom } = suitesOf(o, args);
  const named = [...new Set([...option, ...inArgs])];
  // With no suite file of another name among the arguments only built-in suites run: their strategies are known.
  const suites = named.length ? named : custom ? [] : known();
  if (o.strategies !== undefined) {
    const names = parseOption(() => parseNameList(o.strategies as string, '--strategies'));
    const unknown = names.filter((n) => !isStrategyName(n));
    if (!custom && unknown.length)
      throw usageError(
        `unknown ${unknown.length === 1 ? 'strategy' : 'strategies'} ${unknown.map((n) => `"${n}"`).join(', ')} (the suites' strategies: ${BUILT_IN_STRATEGY_NAMES.join(', ')}, or harness:<path>)`,
      );
    // The suites run from the package folder: a harness file is named by its absolute path, and must exist.
    const resolved = names.map((n) => {
      if (!n.startsWith(HARNESS_STRATEGY_PREFIX)) return n;
      const file = resolve(n.slice(HARNESS_STRATEGY_PREFIX.length));
      if (!existsSync(file)) throw usageError(`--strategies: ${n}: there is no harness file ${file}`);
      return `${HARNESS_STRATEGY_PREFIX}${file}`;
    });
    vars.WITNESS_STRATEGIES = resolved.join(',');
  }
  if (o.data !== undefined) {
    if (option.length !== 1 || inArgs.some((n) => n !== option[0]))
      throw usageError('--data needs exactly one --suite (whose data it is), e.g. --suite bird --data path/to/dev');
    const path = resolve(o.data);
    if (!existsSync(path)) throw usageError(`--data: there is no file or folder ${path}`);
    vars[SUITE_DATA_ENV[option[0] as SuiteName]] = path;
  }
  if (o.split !== undefined) {
    if (!o.split.trim()) throw usageError('--split: expected a split name');
    vars.WITNESS_SPLIT = o.split.trim();
  }
  if (o.limit !== undefined) vars.WITNESS_LIMIT = String(o.limit);
  if (o.tasks !== undefined) {
    // Ids belong to one benchmark: one built-in suite, or suite files of your own (their suites check the ids).
    if (custom ? named.length > 0 : named.length !== 1)
      throw usageError('--tasks needs exactly one --suite (task ids belong to one benchmark), e.g. --suite nl-rx');
    // A file is passed on by its name: a long list would not fit in one environment variable.
    const tasks = o.tasks.trim();
    const file = tasks.startsWith('@') ? resolve(tasks.slice(1)) : null;
    if (file && !existsSync(file)) throw usageError(`--tasks: there is no file ${file}`);
    vars.WITNESS_TASKS = file ? `@${file}` : parseOption(() => parseNameList(tasks, '--tasks')).join(',');
  }
  const vitestArgs = [...args, ...option.filter((n) => !inArgs.includes(n)).map((n) => `suites/${n}.eval.ts`)];
  return { vars, suites, custom, vitestArgs };
}

/** Each suite's plan (tasks selected × strategies × trials, call bounds); a selection that does not fit is a usage error. */
async function planSuites(suites: readonly string[], config: WitnessConfig) {
  const { specTasks } = await import('../suites/registry.ts');
  const { planSuite } = await import('./bench-plan.ts');
  const plans: SuitePlan[] = [];
  for (const name of suites) {
    const loaded = await specTasks(name);
    plans.push(
      parseOption(() =>
        planSuite(name, loaded, [...BUILT_IN_STRATEGY_NAMES, ...harnessStrategyNames(config.run.strategies)], config),
      ),
    );
  }
  return plans;
}

export const registerBench: Registrar = ({ program }) => {
  program
    .command('bench')
    .description(
      'run the benchmark suites (vitest project "bench"); extra arguments go to vitest, e.g. suites/nl-rx.eval.ts or --shard 1/2',
    )
    .argument('[args...]', 'vitest arguments')
    .option('--suite <names>', `only these suites, comma-separated (${known().join(', ')})`)
    .option('--strategies <names>', 'only these strategies of each suite, comma-separated (e.g. zero-shot,diagnostic)')
    .option('--tasks <ids>', 'only these task ids (comma-separated, or @file with one id per line); needs one --suite')
    .option(
      '--limit <n>',
      "a seeded sample of n tasks per suite (the config's seed; the same on every run)",
      positiveInteger,
    )
    .option('--split <name>', 'the data split the suites run on (e.g. dev, train, test)')
    .option('--data <path>', "the suite's data in its official layout; needs exactly one --suite")
    .option(
      '--resume <run>',
      'reuse the finished episodes of run <run> in the run store ("latest" = the most recent run)',
    )
    .addOption(
      new Option(
        '--rerun <which>',
        'with --resume: redo the stored episodes that errored (harness or model error) or failed (not solved)',
      ).choices([...RERUN_MODES]),
    )
    .option('--trials <n>', 'repeats per (task, strategy), for pass@k and per-task agreement', positiveInteger)
    .option(
      '--budget <amount>',
      'stop the run cleanly once it has spent this many tokens (120000, 120k, 1.5M) or USD ($2.50, needs prices in the config)',
    )
    .option('--dry-run', 'print what would run and its cost in model calls, without calling a model or an engine')
    .option('--json', 'with --dry-run: print the plan as JSON')
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nThe options become environment variables (WITNESS_STRATEGIES, WITNESS_TASKS, WITNESS_LIMIT, WITNESS_SPLIT, ' +
        'WITNESS_<SUITE>_DATA, WITNESS_RESUME, WITNESS_RERUN, WITNESS_TRIALS, WITNESS_BUDGET, WITNESS_RUN_ID) ' +
        'that the suites read, so `npx vitest` can be given the same settings directly. The run id is printed first: ' +
        'a run that is interrupted (Ctrl-C, kill -9) continues with `witness bench --resume <run id>`.',
    )
    .action(async (args: string[], o: BenchOptions) => {
      const { vars, suites, custom, vitestArgs } = benchSettings(o, args);
      const env: NodeJS.ProcessEnv = { ...process.env, ...vars };
      const { config } = loadConfig(ROOT, env);
      if (o.dryRun || (o.tasks !== undefined && !custom)) {
        // The specs read this process's configuration: give it the run's settings (--data, --split).
        Object.assign(process.env, vars);
        // Unknown task ids are a usage error here, before anything starts.
        const plans = await planSuites(suites, config);
        if (o.dryRun) {
          const { benchPlan, formatBenchPlan } = await import('./bench-plan.ts');
          const plan = benchPlan(plans, config);
          process.stdout.write(o.json ? `${JSON.stringify(plan, null, 2)}\n` : `${formatBenchPlan(plan)}\n`);
          if (custom) process.stderr.write('witness: suite files other than the built-in ones are not counted\n');
          return;
        }
      }
      const { storeDir, run: configured } = config;
      let runId = configured.id;
      if (o.resume) {
        runId = o.resume === 'latest' ? latestRunId(storeDir) : o.resume;
        if (!runId) throw new Error(`there is no run to resume in ${storeDir}`);
        const store = new RunStore(storeDir, runId);
        if (!store.exists()) throw new Error(`cannot resume run ${runId}: there is no ${store.dir}`);
        env.WITNESS_RESUME = runId;
        if (o.rerun) env.WITNESS_RERUN = o.rerun;
      }
      runId ??= newRunId();
      env.WITNESS_RUN_ID = runId;
      process.stderr.write(
        `witness: run ${runId}${o.resume ? ' (resumed)' : ''}; if it is interrupted, continue it with: witness bench --resume ${runId}\n`,
      );
      const vitest = resolve(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
      const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'bench*', ...vitestArgs], {
        stdio: 'inherit',
        cwd: ROOT,
        env,
      });
      process.exitCode = run.status ?? 1;
    });
};
