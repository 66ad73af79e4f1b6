/**
 * `witness optimize meta-harness --suite NAME`: the Meta-Harness search over whole harnesses
 * (docs/meta-harness.md#cli). Seeds first, then `--iterations` × `--candidates` proposals, each
 * validated and evaluated on the search pool; the frontier and the seeds on the held-out test
 * split at the end. `--resume RUN` continues a killed search in the same store.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseBudget, type Budget } from '../core/budget.ts';
import { createModel, NO_MODEL_NOTICE } from '../core/models/create.ts';
import { loadPrompt } from '../core/prompt.ts';
import { heroPrivilegedNotice } from '../optimizers/hero/optimize.ts';
import type { Proposer } from '../optimizers/meta-harness/proposer.ts';
import {
  configuredProposer,
  DEFAULT_SKILL_FILE,
  proposerModelName,
} from '../optimizers/meta-harness/proposer/index.ts';
import type { CandidateSpend } from '../optimizers/meta-harness/search-candidate.ts';
import { callCost } from '../core/cost.ts';
import type { Price } from '../core/types.ts';
import type { ChatModel } from '../core/models/model.ts';
import type { WitnessConfig } from '../core/config.ts';
import { terminalLine } from '../core/text-safety.ts';
import { disposeSpec } from '../core/suite-descriptor.ts';
import { DEFAULT_SEARCH, runSearch } from '../optimizers/meta-harness/search.ts';
import { searchPools } from '../optimizers/meta-harness/search-pools.ts';
import { renderSearchHtml, searchPageData } from '../optimizers/meta-harness/search-html.ts';
import { renderSearchReport, type ReportNotices } from '../optimizers/meta-harness/search-report.ts';
import {
  learnedPromptSeeds,
  readLearnedInstructions,
  type SourceSeed,
} from '../optimizers/meta-harness/seed-prompt.ts';
import { SEED_NAMES, type SeedName } from '../optimizers/meta-harness/seeds.ts';
import { createSimProposer } from '../optimizers/meta-harness/sim-proposer.ts';
import { MetaHarnessStore } from '../optimizers/meta-harness/store.ts';
import { suiteNamed } from '../oracles/suites.ts';
import { heroSources } from './hero-sources.ts';
import { configWithData, describeSplit } from './hero-split.ts';
import { fraction, positiveInteger, usageError } from './options.ts';
import { say, warn } from './output.ts';
import type { Registrar } from './registrar.ts';

/** The bench command that runs a found harness next to zero-shot and HERO-T in the suite's leaderboard. */
export function leaderboardCommand(suite: string, harnessFile: string): string {
  const path = relative(process.cwd(), harnessFile);
  const shown = path && !path.startsWith('..') && !isAbsolute(path) ? path : harnessFile;
  const quoted = /^[\w./:,@+-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, "'\\''")}'`;
  return `npx witness bench --suite ${suite} --strategies zero-shot,hero-t,harness:${quoted}`;
}

interface Options {
  suite: string;
  iterations: number;
  candidates: number;
  trials: number;
  seed: number;
  budget?: string;
  resume?: string;
  proposer: string;
  proposerCmd?: string;
  out?: string;
  model?: string;
  limit?: number;
  seeds?: string;
  testFraction: number;
  data?: string;
  seedPrompt?: string;
}

/** What a resumed search must share with the run it continues. */
interface SearchSettings {
  suite: string;
  model: string;
  seed: number;
  trials: number;
  limit: number | null;
  testFraction: number;
  seeds: string[];
  candidates: number;
  /** The learned prompt's file, when --seed-prompt gave one (left out otherwise, as older runs have it). */
  seedPrompt?: string;
}

function parseSeeds(text: string | undefined): SeedName[] {
  if (text === undefined) return [...SEED_NAMES];
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names)
    if (!(SEED_NAMES as readonly string[]).includes(n))
      throw usageError(`--seeds: unknown seed harness "${n}" (known: ${SEED_NAMES.join(', ')})`);
  if (names.length === 0) throw usageError('--seeds: name at least one seed harness');
  return names as SeedName[];
}

/** A proposer model that adds what its answered (not cached) calls cost to `spend`. */
function countingSpend(spend: CandidateSpend, price: Price | null) {
  return (model: ChatModel): ChatModel => ({
    info: model.info,
    async complete(request) {
      const reply = await model.complete(request);
      if (!reply.cached) {
        spend.tokens += reply.usage.promptTokens + reply.usage.completionTokens;
        spend.usd += price ? callCost(price, reply.usage) : 0;
      }
      return reply;
    },
  });
}

/** The proposer the options ask for: the user's command, the agent over the proposer model, or the sim proposer. */
function chooseProposer(
  o: Options,
  language: string,
  config: WitnessConfig,
  spend: CandidateSpend,
): { proposer: Proposer; close(): Promise<void> } {
  if (o.proposerCmd === undefined && o.proposer === 'sim')
    return { proposer: createSimProposer({ seed: o.seed, language }), close: async () => {} };
  if (o.proposerCmd === undefined && o.proposer !== 'agent')
    throw usageError(`--proposer: expected sim or agent, got "${o.proposer}"`);
  const price = config.prices[proposerModelName(config)] ?? null;
  const configured = configuredProposer(config, {
    ...(o.proposerCmd === undefined ? {} : { command: o.proposerCmd }),
    meter: countingSpend(spend, price),
  });
  if (!configured)
    throw usageError(
      '--proposer agent needs a real model: set proposer.model (WITNESS_PROPOSER_MODEL) or the model (WITNESS_MODEL) to one served at the endpoint',
    );
  return configured;
}

/** Checks a resumed run's settings against the stored ones (search.json), or writes them for a new run. */
function settle(store: MetaHarnessStore, settings: SearchSettings, resume: boolean): void {
  const file = join(store.root, 'search.json');
  if (!resume) {
    mkdirSync(store.root, { recursive: true });
    writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
    return;
  }
  if (!existsSync(file)) throw usageError(`--resume: ${store.root} holds no search (no search.json)`);
  const stored = JSON.parse(readFileSync(file, 'utf8')) as SearchSettings;
  for (const key of Object.keys(settings) as (keyof SearchSettings)[])
    if (JSON.stringify(stored[key]) !== JSON.stringify(settings[key]))
      throw usageError(
        `--resume: the stored search ran with ${key} ${JSON.stringify(stored[key])}, not ${JSON.stringify(settings[key])} (${file})`,
      );
}

async function run(o: Options): Promise<void> {
  const { config, defaultedToSim } = configWithData(o.suite, o.data);
  const budget: Budget | undefined = o.budget === undefined ? undefined : parseBudget(o.budget, '--budget');
  const seeds = parseSeeds(o.seeds);
  const seedPromptFile = o.seedPrompt === undefined ? undefined : resolve(o.seedPrompt);
  let sourceSeeds: SourceSeed[] = [];
  if (seedPromptFile)
    try {
      sourceSeeds = learnedPromptSeeds(readLearnedInstructions(seedPromptFile), seedPromptFile);
    } catch (error) {
      throw usageError((error as Error).message);
    }
  const modelName = o.model ?? config.model.name;
  if (defaultedToSim && !o.model) warn(NO_MODEL_NOTICE);
  const spec = await suiteNamed(o.suite).spec(config);
  const language = o.suite === 'nl-rx' ? 'regex' : o.suite;
  const proposerSpend: CandidateSpend = { tokens: 0, usd: 0 };
  const { proposer, close: closeProposer } = chooseProposer(o, language, config, proposerSpend);
  const runId = o.resume ?? `${spec.name}-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`;
  const store = new MetaHarnessStore(o.out ? resolve(o.out) : config.storeDir, runId);
  if (o.resume && !existsSync(store.root)) throw usageError(`--resume: there is no search run ${store.root}`);
  settle(
    store,
    {
      suite: spec.name,
      model: modelName,
      seed: o.seed,
      trials: o.trials,
      limit: o.limit ?? null,
      testFraction: o.testFraction,
      seeds,
      candidates: o.candidates,
      ...(seedPromptFile ? { seedPrompt: seedPromptFile } : {}),
    },
    o.resume !== undefined,
  );
  const pools = searchPools(o.suite, await heroSources(o.suite, config), {
    seed: o.seed,
    testFraction: o.testFraction,
    ...(o.limit ? { limit: o.limit } : {}),
  });
  for (const issue of pools.issues) warn(terminalLine(`  skipped ${issue.item}: ${issue.message}`));
  const model = createModel({ ...config, model: { ...config.model, name: modelName } });
  warn(
    `Meta-Harness on ${spec.name}: ${pools.search.length} search tasks, ${pools.test.length} test tasks; run ${store.root}\n${describeSplit(pools.split)}`,
  );
  try {
    const result = await runSearch({
      store,
      oracle: spec.oracle,
      prompt: loadPrompt(spec.prompt),
      model,
      tasks: pools.search,
      testTasks: pools.test,
      trials: o.trials,
      seed: o.seed,
      price: config.prices[modelName] ?? null,
      proposer,
      skillFile: DEFAULT_SKILL_FILE,
      proposerSpend: () => proposerSpend,
      options: {
        iterations: o.iterations,
        candidates: o.candidates,
        seeds,
        sourceSeeds,
        ...(budget ? { budget } : {}),
      },
      onProgress: (line) => warn(`  ${line}`),
    });
    const privilegedNotice = heroPrivilegedNotice(model.info)?.replace('HERO', 'the search') ?? null;
    const notices: ReportNotices = {
      suite: spec.name,
      model: modelName,
      proposer: proposer.name,
      proposerSimulated: proposer.simulated,
      privilegedNotice,
      stoppedBy: result.stoppedBy,
      spent: result.spent,
      searchTasks: pools.search.length,
      testTasks: pools.test.length,
    };
    const report = renderSearchReport(store, notices, result.heldOut, result.comparisons, result.baseline);
    mkdirSync(store.heldOutDir, { recursive: true });
    const reportFile = join(store.heldOutDir, 'report.md');
    writeFileSync(reportFile, report);
    const best = result.frontier?.members[0];
    const bestFile = best ? join(store.candidateDir(best.id), 'harness.ts') : null;
    const leaderboard = bestFile ? leaderboardCommand(spec.name, bestFile) : null;
    const htmlFile = join(store.heldOutDir, 'report.html');
    writeFileSync(
      htmlFile,
      renderSearchHtml(
        searchPageData(store, notices, result.heldOut, result.comparisons, result.baseline, leaderboard),
      ),
    );
    if (privilegedNotice) warn(privilegedNotice);
    if (proposer.simulated) warn('proposer simulated: the sim proposer wrote the candidates');
    say(
      `${best ? `best: ${best.id} (Pass@final ${best.passAtFinal.toFixed(3)}, ${best.meanTokens.toFixed(0)} tokens): ${bestFile}\n` : ''}` +
        `report: ${reportFile}\nhtml report: ${htmlFile}\nstore: ${store.root}` +
        (leaderboard ? `\nleaderboard: ${leaderboard}` : ''),
    );
  } finally {
    await model.close?.();
    await closeProposer();
    await disposeSpec(spec);
  }
}

export const registerOptimizeMetaHarness: Registrar = ({ program }) => {
  const optimize =
    program.commands.find((c) => c.name() === 'optimize') ??
    program.command('optimize').description('learn prompts offline from execution evidence');
  optimize
    .command('meta-harness')
    .description(
      'Meta-Harness: search over whole harness modules (seeds, proposer iterations, Pareto frontier, held-out test)',
    )
    .requiredOption('--suite <name>', 'the benchmark, e.g. nl-rx')
    .option('--iterations <n>', 'proposer iterations after the seeds', positiveInteger, DEFAULT_SEARCH.iterations)
    .option(
      '--candidates <n>',
      'candidates the proposer writes per iteration',
      positiveInteger,
      DEFAULT_SEARCH.candidates,
    )
    .option('--trials <n>', 'repeats per task in every evaluation', positiveInteger, 1)
    .option('--seed <n>', 'seed of the pools, the model and the sim proposer', positiveInteger, 1)
    .option(
      '--budget <amount>',
      'stop the search cleanly once it spent this many tokens (120k, 1.5M) or USD ($2.50, needs prices)',
    )
    .option(
      '--resume <run>',
      'continue the search run <run> (its folder under the store), skipping finished evaluations',
    )
    .option('--proposer <name>', 'who writes candidates: sim (seeded, offline) or agent (a model)', 'sim')
    .option('--proposer-cmd <command>', 'an external coding agent to run as the proposer')
    .option('--model <name>', 'the task model (default: the configured one; sim when none; sim-steerable selectable)')
    .option('--limit <n>', 'keep the first N tasks of the search pool and of the test split', positiveInteger)
    .option('--seeds <names>', `seed harnesses, comma-separated (default: ${SEED_NAMES.join(',')})`)
    .option(
      '--test-fraction <x>',
      'share of the tasks held out for the test split when the data has none of its own',
      fraction,
      0.5,
    )
    .option('--data <path>', "the suite's data in its official layout")
    .option(
      '--seed-prompt <file>',
      "HERO-O's learned prompt (learned.md or hero-report.json of witness optimize hero) as two more seeds: hero-o, hero-o-verify",
    )
    .option(
      '--out <dir>',
      'the store folder; runs go to <dir>/meta-harness/<run> (default: the run store, storeDir / WITNESS_STORE)',
    )
    .action(run);
};
