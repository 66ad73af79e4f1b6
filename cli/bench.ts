/**
 * `witness bench`: the benchmark suites (vitest project "bench"), with the run plumbing (resume,
 * trials, budget) and the selections (suites, strategies, tasks, a seeded sample, split, data)
 * turned into the environment variables the suites read, or a dry run that only counts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
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
} from '../core/strategy-names.ts';
import type { SuitePlan } from './bench-plan.ts';
import { filesOfShard, shardOfArgs, type Shard } from './bench-shard.ts';
import { positiveInteger, usageError } from './options.ts';
import { sayResult, warn } from './output.ts';
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
  excludeTasks?: string;
  limit?: number;
  strictData?: boolean;
  split?: string;
  data?: string;
  dryRun?: boolean;
  json?: boolean;
}

const known = (): string[] => [...SUITE_NAMES].sort();
const suiteFile = (name: string) => `suites/${name}.eval.ts`;

/** The option, refused when given twice: commander would keep the last value and silently drop the first. */
function once(option: Option): Option {
  const parse = option.parseArg;
  return option.argParser((value: string, previous: unknown) => {
    if (previous !== undefined)
      throw new InvalidArgumentError(
        `${option.long} is given more than once (give it once; a list goes comma-separated)`,
      );
    return parse ? parse(value, undefined) : value;
  });
}

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
  for (const [option, value, name] of [
    ['--tasks', o.tasks, 'WITNESS_TASKS'],
    ['--exclude-tasks', o.excludeTasks, 'WITNESS_EXCLUDE_TASKS'],
  ] as const) {
    if (value === undefined) continue;
    // Ids belong to one benchmark: one built-in suite, or suite files of your own (their suites check the ids).
    if (custom ? named.length > 0 : named.length !== 1)
      throw usageError(`${option} needs exactly one --suite (task ids belong to one benchmark), e.g. --suite nl-rx`);
    // A file is passed on by its name: a long list would not fit in one environment variable.
    const ids = value.trim();
    const file = ids.startsWith('@') ? resolve(ids.slice(1)) : null;
    if (file && !existsSync(file)) throw usageError(`${option}: there is no file ${file}`);
    vars[name] = file ? `@${file}` : parseOption(() => parseNameList(ids, option)).join(',');
  }
  if (o.strictData) vars.WITNESS_STRICT_DATA = '1';
  const vitestArgs = [...args, ...option.filter((n) => !inArgs.includes(n)).map(suiteFile)];
  return { vars, suites, custom, vitestArgs };
}

/**
 * The built-in suites among the files shard `shard` runs. The run's files are the suite files
 * named among the vitest arguments and by --suite, or every built-in suite when none is named.
 */
async function suitesOfShard(suites: readonly string[], args: readonly string[], shard: Shard): Promise<string[]> {
  const named = args.filter((arg) => SUITE_FILE.test(arg)).map((arg) => relative(ROOT, resolve(ROOT, arg)));
  const files = [...new Set([...named, ...suites.map(suiteFile)])];
  const chosen = new Set(await filesOfShard(files, shard, ROOT));
  return suites.filter((name) => chosen.has(suiteFile(name)));
}

/** Each suite's plan (tasks selected × strategies × trials, call bounds); a selection that does not fit is a usage error. */
async function planSuites(suites: readonly string[], config: WitnessConfig) {
  const { suiteNamed } = await import('../oracles/suites.ts');
  const { planSuite } = await import('./bench-plan.ts');
  const plans: SuitePlan[] = [];
  for (const name of suites) {
    const loaded = await suiteNamed(name).tasks(config);
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
    .addOption(once(new Option('--suite <names>', `only these suites, comma-separated (${known().join(', ')})`)))
    .addOption(
      once(
        new Option(
          '--strategies <names>',
          'only these strategies of each suite, comma-separated (e.g. zero-shot,diagnostic)',
        ),
      ),
    )
    .addOption(
      once(
        new Option(
          '--tasks <ids>',
          'only these task ids (comma-separated, or @file with one id per line); needs one --suite',
        ),
      ),
    )
    .addOption(
      once(
        new Option(
          '--exclude-tasks <ids>',
          'leave these task ids out (comma-separated, or @file such as `witness data check --write-invalid` writes); needs one --suite',
        ),
      ),
    )
    .addOption(
      once(
        new Option(
          '--limit <n>',
          "a seeded sample of n tasks per suite (the config's seed; the same on every run)",
        ).argParser(positiveInteger),
      ),
    )
    .addOption(once(new Option('--split <name>', 'the data split the suites run on (e.g. dev, train, test)')))
    .addOption(once(new Option('--data <path>', "the suite's data in its official layout; needs exactly one --suite")))
    .addOption(
      once(
        new Option(
          '--resume <run>',
          'reuse the finished episodes of run <run> in the run store ("latest" = the most recent run)',
        ),
      ),
    )
    .addOption(
      once(
        new Option(
          '--rerun <which>',
          'with --resume: redo the stored episodes that errored (harness error, model error, invalid data) or failed (not solved)',
        ).choices([...RERUN_MODES]),
      ),
    )
    .addOption(
      once(
        new Option('--trials <n>', 'repeats per (task, strategy), for pass@k and per-task agreement').argParser(
          positiveInteger,
        ),
      ),
    )
    .addOption(
      once(
        new Option(
          '--budget <amount>',
          'stop the run cleanly once it has spent this many tokens (120000, 120k, 1.5M) or USD ($2.50, needs prices in the config)',
        ),
      ),
    )
    .option(
      '--strict-data',
      'invalid data (items the dataset makes unposable) fails the run like a harness error, instead of being listed and left out of the rates',
    )
    .option('--dry-run', 'print what would run and its cost in model calls, without calling a model or an engine')
    .option('--json', 'with --dry-run: print the plan as JSON')
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nThe options become environment variables (WITNESS_STRATEGIES, WITNESS_TASKS, WITNESS_EXCLUDE_TASKS, WITNESS_LIMIT, ' +
        'WITNESS_SPLIT, WITNESS_<SUITE>_DATA, WITNESS_STRICT_DATA, WITNESS_RESUME, WITNESS_RERUN, WITNESS_TRIALS, ' +
        'WITNESS_BUDGET, WITNESS_RUN_ID) ' +
        'that the suites read, so `npx vitest` can be given the same settings directly. The run id is printed first: ' +
        'a run that is interrupted (Ctrl-C, kill -9) continues with `witness bench --resume <run id>`.',
    )
    .action(async (args: string[], o: BenchOptions) => {
      const { vars, suites, custom, vitestArgs } = benchSettings(o, args);
      const env: NodeJS.ProcessEnv = { ...process.env, ...vars };
      const { config } = loadConfig(ROOT, env);
      // Task ids from --tasks, WITNESS_TASKS or the config file: unknown ones are a usage error here,
      // before vitest starts a suite (CypherBench's would start Neo4j first).
      if (o.dryRun || ((config.run.tasks !== undefined || config.run.excludeTasks !== undefined) && !custom)) {
        const shard = o.dryRun ? shardOfArgs(args) : undefined;
        const counted = shard ? await suitesOfShard(suites, args, shard) : suites;
        const plans = await planSuites(counted, config);
        if (o.dryRun) {
          const { benchPlan, formatBenchPlan } = await import('./bench-plan.ts');
          const plan = benchPlan(plans, config, shard);
          sayResult(o.json, plan, () => formatBenchPlan(plan));
          if (custom) warn('witness: suite files other than the built-in ones are not counted');
          return;
        }
      }
      const { storeDir, run: configured } = config;
      let runId = configured.id;
      if (o.resume) {
        runId = o.resume === 'latest' ? latestRunId(storeDir) : o.resume;
        if (!runId) throw usageError(`--resume ${o.resume}: there is no run to resume in ${storeDir}`);
        const store = new RunStore(storeDir, runId);
        if (!store.exists()) throw usageError(`--resume: there is no run ${runId} (no ${store.dir})`);
        env.WITNESS_RESUME = runId;
        if (o.rerun) env.WITNESS_RERUN = o.rerun;
      }
      runId ??= newRunId();
      env.WITNESS_RUN_ID = runId;
      warn(
        `witness: run ${runId}${o.resume ? ' (resumed)' : ''}; if it is interrupted, continue it with: witness bench --resume ${runId}`,
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
