/** The `witness` command line. */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { packagePath } from '../core/package-root.ts';
import type { Dialect } from '../oracles/regex/ast.ts';
import { modulesFor } from './commands.ts';
import { existingPath, nonNegativeInteger, progressLine } from './options.ts';
import { sayResult, warn } from './output.ts';

/** The version in the package's package.json. */
const version = (): string =>
  (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
const dialectOption = (flags: string, description: string) =>
  new Option(flags, description).choices(['ecmascript', 'brics']);

/** The program with the commands `words` (the command line's words, options left out) need. */
export async function buildProgram(words: readonly string[] = []): Promise<Command> {
  const program = new Command('witness')
    .description('Benchmark how well LLMs write and repair programs when an execution oracle shows them what is wrong.')
    .version(version(), '-V, --version', 'print the version of Witness')
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
        sayResult(Boolean(o.json), result, () => formatCheckRegex(result));
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
    .requiredOption('--data <dir>', 'folder with targ.txt (brics golds, one per line)', existingPath)
    .requiredOption('--predictions <file>', 'one predicted regex per line, aligned with targ.txt', existingPath)
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
      sayResult(Boolean(o.json), result, () => {
        const s = result.byStatus;
        return [
          `accuracy ${(100 * result.accuracy).toFixed(2)}% (${result.correct}/${result.total})`,
          `  exact string ${s.exact}, equivalent ${s.equivalent}, not equivalent ${s['not-equivalent']}`,
          `  invalid prediction ${s['invalid-prediction']}, invalid gold ${s['invalid-gold']}, undecided ${s.undecided}`,
        ].join('\n');
      });
    });

  for (const module of modulesFor(words)) (await module.load())({ program, check, evaluate });

  program
    .command('config')
    .description('print the resolved configuration (environment > witness.config.json > defaults)')
    .action(async () => {
      // Loaded here: the configuration brings a dozen modules no other command of this file needs.
      const { loadConfig } = await import('../core/config.ts');
      const loaded = loadConfig(process.cwd());
      const { neo4j } = loaded.config;
      // The Neo4j password may come from the environment; like the API key, it is never printed.
      const shown = neo4j.password
        ? { ...loaded, config: { ...loaded.config, neo4j: { ...neo4j, password: '[redacted]' } } }
        : loaded;
      sayResult(true, shown, () => '');
    });

  return program;
}

/** Runs the command line `argv` (node, script, words…). */
export async function main(argv: string[]): Promise<void> {
  try {
    const program = await buildProgram(argv.slice(2).filter((word) => !word.startsWith('-')));
    await program.parseAsync(argv);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') {
      process.exitCode = 0;
    } else if (typeof code === 'string' && code.startsWith('commander.')) {
      if (code === 'commander.usage') warn(`witness: ${(error as Error).message}`);
      process.exitCode = 2;
    } else {
      warn(`witness: ${(error as Error).message}`);
      process.exitCode = 1;
    }
  }
}
