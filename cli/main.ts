/** The `witness` command line. */
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { parseBudget } from '../core/budget.ts';
import { loadConfig } from '../core/config.ts';
import { RERUN_MODES } from '../core/resume.ts';
import { latestRunId, newRunId, RunStore } from '../core/store.ts';
import type { Dialect } from '../oracles/regex/ast.ts';
import { REGISTRARS } from './commands.ts';
import { nonNegativeInteger, positiveInteger, progressLine } from './options.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dialectOption = (flags: string, description: string) =>
  new Option(flags, description).choices(['ecmascript', 'brics']);

/** A usage error: printed with the command's help hint and exit status 2. */
function usageError(message: string): Error {
  return Object.assign(new Error(message), { code: 'commander.usage' });
}

function print(json: boolean, value: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`);
}

export function buildProgram(): Command {
  const program = new Command('witness')
    .description('Benchmark how well LLMs write and repair programs when an execution oracle shows them what is wrong.')
    .showHelpAfterError()
    .exitOverride();

  const check = program.command('check').description('check one candidate program against a gold program');
  check
    .command('regex')
    .description(
      'full-match verdict on 12+12 hidden tests generated from the gold, exact DFA equivalence and the shortest counterexample',
    )
    .requiredOption('--gold <regex>', 'the reference regex')
    .requiredOption('--candidate <regex>', 'the regex to check (ECMAScript may be written /…/flags)')
    .addOption(dialectOption('--dialect <dialect>', 'dialect of both regexes').default('ecmascript'))
    .addOption(dialectOption('--gold-dialect <dialect>', 'dialect of the gold (overrides --dialect)'))
    .addOption(dialectOption('--candidate-dialect <dialect>', 'dialect of the candidate (overrides --dialect)'))
    .option('--seed <n>', 'seed of the hidden tests', nonNegativeInteger, 0)
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExit status: 0 when the languages are equal, 1 when they differ or the candidate fails (hidden tests, syntax, too complex), 2 on usage errors, 3 when the hidden tests pass but equivalence is undecided.',
    )
    .action(
      async (o: {
        gold: string;
        candidate: string;
        dialect: Dialect;
        goldDialect?: Dialect;
        candidateDialect?: Dialect;
        seed: number;
        json?: boolean;
      }) => {
        const { checkRegex, checkRegexExitCode, formatCheckRegex } = await import('./check-regex.ts');
        const result = await checkRegex({
          gold: o.gold,
          candidate: o.candidate,
          goldDialect: o.goldDialect ?? o.dialect,
          candidateDialect: o.candidateDialect ?? o.dialect,
          seed: o.seed,
        });
        print(Boolean(o.json), result, () => formatCheckRegex(result));
        process.exitCode = checkRegexExitCode(result);
      },
    );

  const evaluate = program
    .command('eval')
    .description("score a predictions file the way a benchmark's official evaluator does");
  evaluate
    .command('nl-rx')
    .description(
      'score one predicted regex per line against targ.txt by exact match, then DFA equivalence (DeepRegex-style accuracy)',
    )
    .requiredOption('--data <dir>', 'folder with targ.txt (brics golds, one per line)')
    .requiredOption('--predictions <file>', 'one predicted regex per line, aligned with targ.txt')
    .addOption(dialectOption('--dialect <dialect>', 'dialect of the predictions').default('brics'))
    .option('--tokenized', 'predictions use DeepRegex tokens (<M0>, <NUM>, …, space separated)')
    .option('--json', 'print accuracy and per-item results as JSON')
    .action(async (o: { data: string; predictions: string; dialect: Dialect; tokenized?: boolean; json?: boolean }) => {
      const { evaluateNlRx } = await import('../oracles/regex/evaluate.ts');
      const progress = progressLine('regexes');
      const result = evaluateNlRx({
        data: o.data,
        predictions: o.predictions,
        dialect: o.dialect,
        tokenized: Boolean(o.tokenized),
        // Progress only on a terminal, so logs and pipes stay clean.
        ...(progress ? { onProgress: progress } : {}),
      });
      print(Boolean(o.json), result, () => {
        const s = result.byStatus;
        return [
          `accuracy ${(100 * result.accuracy).toFixed(2)}% (${result.correct}/${result.total})`,
          `  exact string ${s.exact}, equivalent ${s.equivalent}, not equivalent ${s['not-equivalent']}`,
          `  invalid prediction ${s['invalid-prediction']}, invalid gold ${s['invalid-gold']}, undecided ${s.undecided}`,
        ].join('\n');
      });
    });

  for (const register of REGISTRARS) register({ program, check, evaluate });

  program
    .command('bench')
    .description(
      'run the benchmark suites (vitest project "bench"); extra arguments go to vitest, e.g. suites/nl-rx.eval.ts',
    )
    .argument('[args...]', 'vitest arguments')
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
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nThe options become environment variables (WITNESS_RESUME, WITNESS_RERUN, WITNESS_TRIALS, WITNESS_BUDGET, WITNESS_RUN_ID) ' +
        'that the suites read, so `npx vitest` can be given the same settings directly. The run id is printed first: ' +
        'a run that is interrupted (Ctrl-C, kill -9) continues with `witness bench --resume <run id>`.',
    )
    .action((args: string[], o: { resume?: string; rerun?: string; trials?: number; budget?: string }) => {
      const env: NodeJS.ProcessEnv = { ...process.env };
      if (o.rerun && !o.resume) throw usageError('--rerun needs --resume <run> (the run whose episodes to redo)');
      if (o.budget !== undefined) {
        try {
          parseBudget(o.budget, '--budget');
        } catch (error) {
          throw usageError((error as Error).message);
        }
        env.WITNESS_BUDGET = o.budget;
      }
      if (o.trials !== undefined) env.WITNESS_TRIALS = String(o.trials);
      const { storeDir, run: configured } = loadConfig(ROOT, env).config;
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
      const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'bench', ...args], {
        stdio: 'inherit',
        cwd: ROOT,
        env,
      });
      process.exitCode = run.status ?? 1;
    });

  program
    .command('config')
    .description('print the resolved configuration (environment > witness.config.json > defaults)')
    .action(() => {
      const loaded = loadConfig(process.cwd());
      const { neo4j } = loaded.config;
      // The Neo4j password may come from the environment; like the API key, it is never printed.
      const shown = neo4j.password
        ? { ...loaded, config: { ...loaded.config, neo4j: { ...neo4j, password: '[redacted]' } } }
        : loaded;
      print(true, shown, () => '');
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') {
      process.exitCode = 0;
    } else if (typeof code === 'string' && code.startsWith('commander.')) {
      if (code === 'commander.usage') process.stderr.write(`witness: ${(error as Error).message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`witness: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  }
}
