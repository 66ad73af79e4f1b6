/**
 * Benchmark specs by name — tasks, oracle and seed prompt, without strategies — for commands that
 * run outside vitest (`witness optimize hero --suite NAME`). Each `*.eval.ts` declares its suite
 * from the same spec.
 */
import { processLoadedConfig, type Neo4jSettings, type PythonSettings, type SuitesSettings } from '../core/config.ts';
import type { Oracle, PreparedTask } from '../core/oracle.ts';
import { packagePath } from '../core/package-root.ts';
import type { LoadedTasks } from '../core/types.ts';
import { loadBigCodeBench } from '../oracles/python/bigcodebench/loader.ts';
import { bigCodeBenchOracle } from '../oracles/python/bigcodebench/oracle.ts';
import { loadDsCodeBench } from '../oracles/python/dscodebench/loader.ts';
import { dsCodeBenchOracle } from '../oracles/python/dscodebench/oracle.ts';
import { createDriver } from '../oracles/cypher/driver.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from '../oracles/cypher/fixture-paths.ts';
import { ensureGraph } from '../oracles/cypher/load-graph.ts';
import { cypherOracle } from '../oracles/cypher/oracle.ts';
import { loadCypherBenchQuestions } from '../oracles/cypher/loader.ts';
import { startNeo4j } from '../oracles/cypher/server/start.ts';
import { readSimpleKG } from '../oracles/cypher/simplekg.ts';
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

/**
 * DSCodeBench-style tasks (standard library, numpy, pandas): candidate and reference on the same 200
 * inputs of seed 42 in the Python sandbox. `suites.dscodebench.data` (WITNESS_DSCODEBENCH_DATA) points
 * at another file in the official format (then with the original's 200 s limit; the fixtures need
 * well under a second, so 20 s keeps a looping mutant from stalling the run).
 */
export function dsCodeBenchSpec(
  suites: SuitesSettings = configured().suites,
  python: PythonSettings = configured().python,
): BenchmarkSpec {
  const data = suites.dscodebench.data;
  const sandbox = { sandbox: { backend: python.sandbox } };
  return {
    name: 'dscodebench',
    tasks: loadDsCodeBench(data ?? here('../fixtures/dscodebench/dscodebench.jsonl')),
    oracle: dsCodeBenchOracle(data ? sandbox : { ...sandbox, candidateDeadlineMs: 20_000 }),
    prompt: here('../prompts/dscodebench.md'),
  };
}

/**
 * BigCodeBench-style tasks: each TestCases method is one case. `suites.bigcodebench.data`
 * (WITNESS_BIGCODEBENCH_DATA) points at another file in the official format (then with the original's
 * max(240 s or `timeoutPerTaskS`, reference) + 1 s limit; the fixtures get 20 s).
 */
export function bigCodeBenchSpec(
  suites: SuitesSettings = configured().suites,
  python: PythonSettings = configured().python,
): BenchmarkSpec {
  const { data, timeoutPerTaskS } = suites.bigcodebench;
  const sandbox = { sandbox: { backend: python.sandbox } };
  return {
    name: 'bigcodebench',
    tasks: loadBigCodeBench(data ?? here('../fixtures/bigcodebench/bigcodebench.jsonl')),
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

/** CypherBench on the skyways fixture graph, on a Neo4j at `uri`. */
export function cypherBenchSpec(uri: string): BenchmarkSpec {
  return {
    name: 'cypherbench',
    tasks: loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE),
    oracle: cypherOracle({ uri, graphs: [readSimpleKG(SKYWAYS_GRAPH_FILE)] }),
    prompt: here('../prompts/cypherbench.md'),
  };
}

/** CypherBench outside vitest: starts Neo4j (`neo4j.uri`, Docker or the launcher), loads the graph, stops it on dispose. */
async function startedCypherBenchSpec(neo4j: Neo4jSettings = configured().neo4j): Promise<BenchmarkSpec> {
  const server = await startNeo4j({ neo4j });
  const driver = createDriver(server.uri, neo4j);
  try {
    await ensureGraph(driver, readSimpleKG(SKYWAYS_GRAPH_FILE));
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    await driver.close();
  }
  const spec = cypherBenchSpec(server.uri);
  return { ...spec, dispose: () => server.stop() };
}

export const SPECS: Record<string, () => BenchmarkSpec | Promise<BenchmarkSpec>> = {
  cypherbench: startedCypherBenchSpec,
  'nl-rx': nlRxSpec,
  bird: birdSpec,
  dscodebench: dsCodeBenchSpec,
  bigcodebench: bigCodeBenchSpec,
};

/** A spec by name; an unknown name is an error listing the known ones. */
export async function specByName(name: string): Promise<BenchmarkSpec> {
  const factory = SPECS[name];
  if (!factory) throw new Error(`unknown suite "${name}" (known: ${Object.keys(SPECS).sort().join(', ')})`);
  return factory();
}

/** CypherBench's questions alone, without Neo4j or the graphs: what `witness bench --dry-run` counts. */
export function cypherBenchTasks(): LoadedTasks {
  return loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE);
}

/**
 * A suite's tasks without starting an engine (for `witness bench --dry-run` and split files):
 * cypherbench's questions alone; the other specs start nothing when built (their worker pools and
 * connections open on first use), so their tasks come from the spec itself.
 */
export async function specTasks(name: string): Promise<LoadedTasks> {
  if (name === 'cypherbench') return cypherBenchTasks();
  const spec = await specByName(name);
  try {
    return spec.tasks;
  } finally {
    await spec.oracle.dispose?.();
    await spec.dispose?.();
  }
}
