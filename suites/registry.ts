/**
 * Benchmark specs by name — tasks, oracle and seed prompt, without strategies — for commands that
 * run outside vitest (`witness optimize hero --suite NAME`). Each `*.eval.ts` declares its suite
 * from the same spec.
 */
import { processLoadedConfig, type Neo4jSettings, type SuitesSettings, type WitnessConfig } from '../core/config.ts';
import type { Oracle, PreparedTask } from '../core/oracle.ts';
import { packagePath } from '../core/package-root.ts';
import { selectTasks } from '../core/selection.ts';
import type { LoadedTasks } from '../core/types.ts';
import { bigCodeBenchFile, bigCodeBenchSplit, loadBigCodeBench } from '../oracles/python/bigcodebench/loader.ts';
import { bigCodeBenchOracle } from '../oracles/python/bigcodebench/oracle.ts';
import { loadDsCodeBench } from '../oracles/python/dscodebench/loader.ts';
import { dsCodeBenchOracle } from '../oracles/python/dscodebench/oracle.ts';
import {
  loadCypherBenchData,
  withoutUnservedGraphs,
  type CypherBenchData,
  type CypherBenchGraph,
} from '../oracles/cypher/dataset.ts';
import { createDriver } from '../oracles/cypher/driver.ts';
import { SKYWAYS_DATA_DIR } from '../oracles/cypher/fixture-paths.ts';
import { resolveCypherBenchLayout } from '../oracles/cypher/layout.ts';
import { loadCypherBenchQuestions } from '../oracles/cypher/loader.ts';
import { ensureGraph } from '../oracles/cypher/load-graph.ts';
import { servedCypherOracle } from '../oracles/cypher/routed.ts';
import type { Neo4jServer } from '../oracles/cypher/server/server.ts';
import { startNeo4j } from '../oracles/cypher/server/start.ts';
import { loadNlRx } from '../oracles/regex/loader.ts';
import { BIRD_FIXTURES, loadBird } from '../oracles/sql/loader.ts';
import { sqlOracle } from '../oracles/sql/oracle.ts';
import { regexOracle } from '../oracles/regex/oracle.ts';

export interface BenchmarkSpec {
  name: string;
  tasks: LoadedTasks;
  oracle: Oracle<PreparedTask>;
  /** Path of the seed prompt template. */
  prompt: string;
  /** Releases what the spec started besides the oracle (e.g. a Neo4j server); the oracle is disposed too. */
  dispose?: () => Promise<void>;
}

// Paths relative to this folder (suites/), resolved from the package root so they work from dist/ too.
const here = (path: string) => packagePath('suites', path);

/** The suites' settings come from this process's configuration unless a caller passes its own. */
const configured = () => processLoadedConfig().config;

/** What a spec factory may be asked for besides the configuration. */
export interface SpecOptions {
  /** The data split (default: the configured `run.split`, WITNESS_SPLIT; unset = the suite's default). */
  split?: string;
}

/** The split asked for: the caller's, else this process's `run.split`. */
const splitOf = (options: SpecOptions) => ('split' in options ? options.split : configured().run.split);

/**
 * NL-RX with the regex oracle (ECMAScript answers, brics golds): the fixture tasks, or
 * `suites['nl-rx'].data` (WITNESS_NLRX_DATA, NLRX_TURK_DIR) — the raw 10,000 pairs (split `all`) or
 * DeepRegex's tokenized `train` / `val` / `test` split files.
 */
export function nlRxSpec(suites: SuitesSettings = configured().suites, options: SpecOptions = {}): BenchmarkSpec {
  const data = suites['nl-rx'].data ?? here('../fixtures/nl-rx');
  const split = splitOf(options);
  return {
    name: 'nl-rx',
    tasks: loadNlRx(data, split === undefined ? {} : { split }),
    oracle: regexOracle(),
    prompt: here('../prompts/nl-rx.md'),
  };
}

/** DSCodeBench has one set of problems; `test` names it, so a run-wide `--split test` fits it too. */
const DSCODEBENCH_SPLITS = ['test'];

/**
 * DSCodeBench-style tasks (standard library, numpy, pandas): candidate and reference on the same 200
 * inputs of seed 42 in the Python sandbox. `suites.dscodebench.data` (WITNESS_DSCODEBENCH_DATA) points
 * at another file in the official format (`DSCodeBench.json`, JSON Lines; then with the original's
 * 200 s limit; the fixtures need well under a second, so 20 s keeps a looping mutant from stalling the run).
 */
export function dsCodeBenchSpec(options: SpecOptions = {}, config: WitnessConfig = configured()): BenchmarkSpec {
  const split = options.split ?? config.run.split;
  if (split !== undefined && !DSCODEBENCH_SPLITS.includes(split))
    throw new Error(`dscodebench: unknown split ${JSON.stringify(split)} (known: ${DSCODEBENCH_SPLITS.join(', ')})`);
  const data = config.suites.dscodebench.data;
  const sandbox = { sandbox: { backend: config.python.sandbox } };
  return {
    name: 'dscodebench',
    tasks: loadDsCodeBench(data ?? here('../fixtures/dscodebench/dscodebench.jsonl')),
    oracle: dsCodeBenchOracle(data ? sandbox : { ...sandbox, candidateDeadlineMs: 20_000 }),
    prompt: here('../prompts/dscodebench.md'),
  };
}

/**
 * BigCodeBench-style tasks: each TestCases method is one case. `suites.bigcodebench.data`
 * (WITNESS_BIGCODEBENCH_DATA) is a file in the official format or a folder holding the subset's file
 * (`subset`: full or hard), then with the original's max(240 s or `timeoutPerTaskS`, reference) + 1 s
 * limit; the fixtures get 20 s. The split (`instruct` or `complete`) is the option's, else `run.split`,
 * else `suites.bigcodebench.split`, else `instruct`.
 */
export function bigCodeBenchSpec(options: SpecOptions = {}, config: WitnessConfig = configured()): BenchmarkSpec {
  const { data, timeoutPerTaskS, subset } = config.suites.bigcodebench;
  const split = bigCodeBenchSplit(options.split ?? config.run.split ?? config.suites.bigcodebench.split ?? 'instruct');
  if (!data && subset !== 'full')
    throw new Error(
      `bigcodebench: the ${subset} subset needs its data (suites.bigcodebench.data or WITNESS_BIGCODEBENCH_DATA); the fixtures are one set`,
    );
  const sandbox = { sandbox: { backend: config.python.sandbox } };
  const file = data ? bigCodeBenchFile(data, subset) : here('../fixtures/bigcodebench/bigcodebench.jsonl');
  return {
    name: 'bigcodebench',
    tasks: loadBigCodeBench(file, 'bigcodebench', split),
    oracle: bigCodeBenchOracle({ ...sandbox, timeLimitS: data ? timeoutPerTaskS : 20 }),
    prompt: here('../prompts/bigcodebench.md'),
  };
}

/**
 * BIRD-SQL, EX in BIRD's `set` mode so published numbers reproduce: the fixture databases, or
 * `suites.bird.data` (WITNESS_BIRD_DATA) — a BIRD folder (dev, mini-dev or train layout) or its
 * questions file; the split (`dev`, `mini-dev`, `train`) picks among those the folder holds. VES
 * times each correct query with 10 interleaved runs here (BIRD uses 100) so the suite stays fast;
 * `suites.bird.vesIterations` (WITNESS_VES_ITERATIONS) overrides it (0 turns timing off).
 */
export function birdSpec(suites: SuitesSettings = configured().suites, options: SpecOptions = {}): BenchmarkSpec {
  const iterations = suites.bird.vesIterations;
  const split = splitOf(options);
  return {
    name: 'bird',
    tasks: loadBird(suites.bird.data ?? BIRD_FIXTURES, split === undefined ? {} : { split }),
    oracle: sqlOracle({ mode: 'set', ves: iterations > 0 ? { iterations } : false }),
    prompt: here('../prompts/bird.md'),
  };
}

/** What a spec factory may be told by its caller (`witness bench --split`); unset = the configured `run.split`. */
export interface SpecOptions {
  split?: string;
}

/**
 * The CypherBench questions of a split and the graphs they use: `suites.cypherbench.data`
 * (WITNESS_CYPHERBENCH_DATA) in the official layout, else the skyways fixture; split `test` (default)
 * or `train`. Broken questions and graphs are issues; a folder that is not usable throws.
 */
export function cypherBenchData(options: SpecOptions = {}, config: WitnessConfig = configured()): CypherBenchData {
  return loadCypherBenchData(config.suites.cypherbench.data ?? SKYWAYS_DATA_DIR, options.split ?? config.run.split);
}

/** The data, once the run's task ids (`run.tasks`) are known to be in it: an unknown id throws here, before any server starts, with the message the suite gives. */
export function checkedCypherBenchData(data: CypherBenchData, config: WitnessConfig = configured()): CypherBenchData {
  selectTasks(data.tasks, config.run, config.seed, 'cypherbench');
  return data;
}

/** A graph's server as a caller obtained it: its Bolt URI, or why there is none. */
export type GraphServer = { ok: true; uri: string } | { ok: false; reason: string };

/**
 * CypherBench on its graphs' servers: `serve` gets each graph onto a Neo4j (loaded or reused
 * by checksum). Questions of a graph that could not be served become issues with the reason;
 * when no graph could be served, the reason comes back instead of a spec.
 */
export async function servedCypherBenchSpec(
  data: CypherBenchData,
  serve: (graph: CypherBenchGraph) => Promise<GraphServer>,
): Promise<{ ok: true; spec: BenchmarkSpec } | { ok: false; reason: string }> {
  const served: { kg: CypherBenchGraph['kg']; uri: string }[] = [];
  const unserved = new Map<string, string>();
  for (const graph of data.graphs) {
    const server = await serve(graph);
    if (server.ok) served.push({ kg: graph.kg, uri: server.uri });
    else unserved.set(graph.name, server.reason);
  }
  const [firstReason] = unserved.values();
  if (served.length === 0 && firstReason !== undefined) return { ok: false, reason: firstReason };
  return {
    ok: true,
    spec: {
      name: 'cypherbench',
      tasks: withoutUnservedGraphs(data, unserved),
      oracle: servedCypherOracle(served),
      prompt: here('../prompts/cypherbench.md'),
    },
  };
}

/** CypherBench outside vitest: starts a Neo4j per graph (`neo4j.uri`, Docker or the launcher), loads or reuses it, stops them on dispose. */
async function startedCypherBenchSpec(options: SpecOptions = {}): Promise<BenchmarkSpec> {
  const config = configured();
  const neo4j: Neo4jSettings = config.neo4j;
  const servers: Neo4jServer[] = [];
  const stopAll = () => Promise.all(servers.map((s) => s.stop())).then(() => undefined);
  const serve = async (graph: CypherBenchGraph): Promise<GraphServer> => {
    if (servers[0]?.way === 'uri')
      return { ok: false, reason: `NEO4J_URI=${servers[0].uri} holds one graph; unset it to run several graphs` };
    const server = await startNeo4j({ neo4j });
    servers.push(server);
    const driver = createDriver(server.uri, neo4j);
    try {
      await ensureGraph(driver, graph.kg, { replace: server.way !== 'uri' });
      return { ok: true, uri: server.uri };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    } finally {
      await driver.close();
    }
  };
  try {
    const served = await servedCypherBenchSpec(cypherBenchData(options, config), serve);
    if (!served.ok) throw new Error(`cypherbench: ${served.reason}`);
    return { ...served.spec, dispose: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

export const SPECS: Record<string, (options?: SpecOptions) => BenchmarkSpec | Promise<BenchmarkSpec>> = {
  cypherbench: startedCypherBenchSpec,
  'nl-rx': (options) => nlRxSpec(undefined, options),
  bird: (options) => birdSpec(undefined, options),
  dscodebench: dsCodeBenchSpec,
  bigcodebench: bigCodeBenchSpec,
};

/** A spec by name; an unknown name is an error listing the known ones. */
export async function specByName(name: string, options: SpecOptions = {}): Promise<BenchmarkSpec> {
  const factory = SPECS[name];
  if (!factory) throw new Error(`unknown suite "${name}" (known: ${Object.keys(SPECS).sort().join(', ')})`);
  return factory(options);
}

/** CypherBench's questions of the configured data and split alone, without Neo4j or reading the graphs: what `witness bench --dry-run` counts. */
export function cypherBenchTasks(options: SpecOptions = {}, config: WitnessConfig = configured()): LoadedTasks {
  const layout = resolveCypherBenchLayout(
    config.suites.cypherbench.data ?? SKYWAYS_DATA_DIR,
    options.split ?? config.run.split,
  );
  return loadCypherBenchQuestions(layout.questionsFile);
}

/**
 * A suite's tasks without starting an engine (for `witness bench --dry-run` and split files):
 * cypherbench's questions alone; the other specs start nothing when built (their worker pools and
 * connections open on first use), so their tasks come from the spec itself.
 */
export async function specTasks(name: string, options: SpecOptions = {}): Promise<LoadedTasks> {
  if (name === 'cypherbench') return cypherBenchTasks(options);
  const spec = await specByName(name, options);
  try {
    return spec.tasks;
  } finally {
    await spec.oracle.dispose?.();
    await spec.dispose?.();
  }
}
