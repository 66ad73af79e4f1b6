/**
 * The config sections that say where things are and how engines start: per-suite settings, the
 * Python sandbox, the Neo4j server, the perf scripts and the Meta-Harness proposer. Their file keys
 * (`suites`, `python`, `neo4j`, `proposer`) as a schema, and their environment variables (the
 * environment wins).
 */
import { join } from 'node:path';
import {
  bool,
  ConfigError,
  envOnly,
  type EnvSetting,
  int,
  oneOf,
  path,
  positive,
  section,
  text,
} from './config-values.ts';
import { witnessPath } from './paths.ts';

/** What every suite section may hold; a suite adds its own keys. */
export interface SuiteSettings {
  /** Where the suite's real data is (a file or folder in the benchmark's official format). */
  data?: string;
}

export interface SuitesSettings {
  /** VES times each correct query this many interleaved runs (0 = no timing). */
  bird: SuiteSettings & { vesIterations: number };
  /**
   * `timeoutPerTaskS`: the per-task limit with real data (default: the oracle's 240 s); `subset`:
   * which file of a data folder (`full` = 1,140 tasks, `hard` = 148); `split`: which prompt the model
   * sees (`instruct`, the default, or `complete`; `run.split` / `--split` wins).
   */
  bigcodebench: SuiteSettings & {
    timeoutPerTaskS?: number;
    subset: (typeof BIGCODEBENCH_SUBSETS)[number];
    split?: (typeof BIGCODEBENCH_SPLITS)[number];
  };
  dscodebench: SuiteSettings;
  /** `data`: an NL-RX-Turk folder (src.txt, targ.txt). */
  'nl-rx': SuiteSettings;
  cypherbench: SuiteSettings;
}

export const BIGCODEBENCH_SUBSETS = ['full', 'hard'] as const;
export const BIGCODEBENCH_SPLITS = ['instruct', 'complete'] as const;

/** The built-in suites. */
export const SUITE_NAMES = ['bird', 'bigcodebench', 'dscodebench', 'nl-rx', 'cypherbench'] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

/** The environment variable that sets each suite's `data` (what `witness bench --suite S --data D` sets). */
export const SUITE_DATA_ENV: Record<SuiteName, string> = {
  bird: 'WITNESS_BIRD_DATA',
  bigcodebench: 'WITNESS_BIGCODEBENCH_DATA',
  dscodebench: 'WITNESS_DSCODEBENCH_DATA',
  'nl-rx': 'WITNESS_NLRX_DATA',
  cypherbench: 'WITNESS_CYPHERBENCH_DATA',
};

const PYTHON_SANDBOXES = ['auto', 'bwrap', 'docker', 'process'] as const;
export type PythonSandboxChoice = (typeof PYTHON_SANDBOXES)[number];

export interface PythonSettings {
  /** Sandbox backend: `auto` takes bwrap, else Docker (never `process` silently). */
  sandbox: PythonSandboxChoice;
  /** The interpreter inside the sandbox; unset = the full profile when built, else Debian's. */
  interpreter?: string;
  /** The full profile's virtualenv (built or not). */
  fullProfileDir: string;
}

const NEO4J_WAYS = ['docker', 'launcher'] as const;

export interface Neo4jSettings {
  /** A server the user runs (never stopped by Witness); unset = Witness starts one. */
  uri?: string;
  username?: string;
  password?: string;
  /** Restricts the automatic start to one way; unset = Docker, else the Java launcher. */
  way?: (typeof NEO4J_WAYS)[number];
  /** The launcher's heap (default 512). */
  heapMb?: number;
  /** The launcher's java executable (unset = `java` on the PATH). */
  java?: string;
  /** The Docker engine's address, for messages (unset = /var/run/docker.sock). */
  dockerHost?: string;
  /** The launcher keeps each graph's database in `graphStore` across runs (default true; false = a temporary one per start). */
  keepGraphs?: boolean;
  /** Where kept graph databases live (default `.witness/neo4j`), one folder per graph file checksum; unset = none kept. */
  graphStore?: string;
  /** How many kept graph databases stay; the least recently used beyond that are deleted (default 8). */
  keptGraphs?: number;
}

/** Knobs of the scripts in perf/ (environment only). */
export interface PerfSettings {
  /** perf/python.ts: timed rounds per measurement (default 20). */
  pythonRounds: number;
  /** perf/suite.ts: runs of the nl-rx suite (default 3). */
  suiteRuns: number;
}

/** The Meta-Harness proposer (docs/meta-harness.md, "The proposer"). */
export interface ProposerSettings {
  /** Model name at the configured endpoint for the agent proposer; unset = the configured model. */
  model?: string;
  /** The agent's replies per iteration (default 40). */
  maxSteps: number;
  /** Wall time of a `--proposer-cmd` command per iteration, in seconds (default 1800). */
  commandTimeoutS: number;
}

export interface SectionSettings {
  suites: SuitesSettings;
  python: PythonSettings;
  neo4j: Neo4jSettings;
  perf: PerfSettings;
  proposer: ProposerSettings;
}

export function defaultSections(root: string): SectionSettings {
  return {
    suites: {
      bird: { vesIterations: 10 },
      bigcodebench: { subset: 'full' },
      dscodebench: {},
      'nl-rx': {},
      cypherbench: {},
    },
    python: { sandbox: 'auto', fullProfileDir: witnessPath(root, 'python-full') },
    neo4j: { keepGraphs: true, graphStore: witnessPath(root, 'neo4j'), keptGraphs: 8 },
    perf: { pythonRounds: 20, suiteRuns: 3 },
    proposer: { maxSteps: 40, commandTimeoutS: 1800 },
  };
}

/** The file's `suites`, `python`, `neo4j` and `proposer` keys; relative paths resolve against `base`, the file's folder. */
export function sectionsFileShape(base: string) {
  const data = path(base);
  return {
    suites: section({
      bird: section({
        data: data.describe(
          'a BIRD folder (dev, mini-dev or train layout) or its questions file; the split picks among them',
        ),
        vesIterations: int(0).describe('interleaved VES timing runs per correct query (0 = no timing)'),
      }),
      bigcodebench: section({
        data: data.describe(
          "a BigCodeBench file in the official format, or a folder with the subsets' files (then the official time limit)",
        ),
        timeoutPerTaskS: positive().describe(
          "per-task limit in seconds with real data; unset: the oracle's 240 (`witness eval bigcodebench --time-limit` wins)",
        ),
        subset: oneOf(BIGCODEBENCH_SUBSETS).describe(
          'which file of a data folder: `full` (1,140 tasks) or `hard` (148)',
        ),
        split: oneOf(BIGCODEBENCH_SPLITS).describe(
          'what the model is shown: `instruct` (instruct_prompt; unset) or `complete` (complete_prompt); `run.split` wins',
        ),
      }),
      dscodebench: section({ data: data.describe('a DSCodeBench file in the official format') }),
      'nl-rx': section({
        data: data.describe(
          "an NL-RX-Turk folder (raw `src.txt` / `targ.txt`, DeepRegex's `{src,targ}-{train,val,test}.txt`, or a clone of deep-regex); the regex tests and perf scripts read it too",
        ),
      }),
      cypherbench: section({
        data: data.describe(
          'a CypherBench folder in the official layout (`test.json`, `train.json`, `graphs/`); split `test` or `train` from `run.split`',
        ),
      }),
    }).describe('per-suite settings'),
    python: section({
      sandbox: oneOf(PYTHON_SANDBOXES).describe(
        'the sandbox backend: `auto` (bwrap, else Docker), `bwrap`, `docker`, `process` (`--sandbox` wins on the CLI)',
      ),
      interpreter: path(base).describe(
        "the interpreter inside the sandbox (must exist); unset: the full profile when built, else Debian's",
      ),
      fullProfileDir: path(base).describe("the full profile's virtualenv, used once built"),
    }).describe('the Python sandbox'),
    neo4j: section({
      uri: text().describe('a running Neo4j 5.20 to use (never stopped by Witness); unset: Witness starts one'),
      username: text().describe('basic auth user for that server'),
      password: text().describe('basic auth password for that server (prefer the environment)'),
      way: oneOf(NEO4J_WAYS).describe(
        'restricts the automatic start to `docker` or `launcher`; unset: Docker, else the launcher',
      ),
      heapMb: int(1).describe("the Java launcher's heap in MB; unset: 512"),
      java: path(base).describe("the launcher's Java (17+); unset: `$JAVA_HOME/bin/java`, else `java` on the PATH"),
      dockerHost: text().describe(
        'the Docker engine named in messages (dockerode reads `DOCKER_HOST` itself); unset: /var/run/docker.sock',
      ),
      keepGraphs: bool().describe(
        "the launcher keeps each graph's database across runs, so the next run does not load it again; false: a temporary database per start",
      ),
      graphStore: path(base).describe(
        'where kept graph databases live, one folder `<graph>-<key>` per graph file checksum, loader and Neo4j version',
      ),
      keptGraphs: int(1).describe(
        'how many kept graph databases stay; beyond that the least recently used (not in use) are deleted',
      ),
    }).describe('the Neo4j server of the Cypher oracle'),
    proposer: section({
      model: text().describe(
        'model name at the configured endpoint for the built-in agent proposer (same endpoint, key, cache and budget); unset: the configured model',
      ),
      maxSteps: int(1).describe("the agent's replies per iteration, malformed ones included"),
      commandTimeoutS: positive().describe(
        'wall time in seconds of a `--proposer-cmd` command per iteration; then its process group is stopped',
      ),
    }).describe('the Meta-Harness proposer'),
  };
}

/** The environment variables of these sections, in the order they apply; relative paths resolve against the project root. */
export const SECTIONS_ENV: readonly EnvSetting[] = [
  // NLRX_TURK_DIR is the older name of WITNESS_NLRX_DATA.
  { name: 'NLRX_TURK_DIR', key: 'suites.nl-rx.data', read: 'string' },
  ...SUITE_NAMES.map((name): EnvSetting => ({
    name: SUITE_DATA_ENV[name],
    key: `suites.${name}.data`,
    read: 'string',
  })),
  { name: 'WITNESS_VES_ITERATIONS', key: 'suites.bird.vesIterations', read: 'number' },
  { name: 'BIGCODEBENCH_TIMEOUT_PER_TASK', key: 'suites.bigcodebench.timeoutPerTaskS', read: 'number' },
  { name: 'WITNESS_BIGCODEBENCH_SUBSET', key: 'suites.bigcodebench.subset', read: 'string' },
  { name: 'WITNESS_PYTHON_SANDBOX', key: 'python.sandbox', read: 'string' },
  { name: 'WITNESS_PYTHON', key: 'python.interpreter', read: 'string' },
  { name: 'WITNESS_PYTHON_FULL_DIR', key: 'python.fullProfileDir', read: 'string' },
  { name: 'NEO4J_URI', key: 'neo4j.uri', read: 'trimmed' },
  { name: 'NEO4J_USERNAME', key: 'neo4j.username', read: 'raw' },
  { name: 'NEO4J_PASSWORD', key: 'neo4j.password', read: 'raw' },
  { name: 'WITNESS_NEO4J', key: 'neo4j.way', read: neo4jWay },
  { name: 'WITNESS_NEO4J_HEAP_MB', key: 'neo4j.heapMb', read: heapMb },
  { name: 'WITNESS_JAVA', key: 'neo4j.java', read: 'raw' },
  // JAVA_HOME is where Java is installed, like PATH a lookup rather than a setting: the last resort.
  { name: 'JAVA_HOME', key: 'neo4j.java', read: (home) => join(home, 'bin', 'java'), fallback: true },
  { name: 'DOCKER_HOST', key: 'neo4j.dockerHost', read: 'raw' },
  { name: 'WITNESS_NEO4J_KEEP_GRAPHS', key: 'neo4j.keepGraphs', read: 'switch' },
  { name: 'WITNESS_NEO4J_GRAPH_STORE', key: 'neo4j.graphStore', read: 'string' },
  { name: 'WITNESS_NEO4J_KEPT_GRAPHS', key: 'neo4j.keptGraphs', read: 'number' },
  envOnly('PERF_PYTHON_ROUNDS', 'perf.pythonRounds', int(1), 'timed rounds of `perf/python.ts`', 'number'),
  envOnly('PERF_SUITE_RUNS', 'perf.suiteRuns', int(1), 'runs of `perf/suite.ts`', 'number'),
  { name: 'WITNESS_PROPOSER_MODEL', key: 'proposer.model', read: 'trimmed' },
  { name: 'WITNESS_PROPOSER_MAX_STEPS', key: 'proposer.maxSteps', read: 'number' },
  { name: 'WITNESS_PROPOSER_TIMEOUT_S', key: 'proposer.commandTimeoutS', read: 'number' },
];

function neo4jWay(value: string): Neo4jSettings['way'] | undefined {
  const way = value.trim();
  if (way === '') return undefined;
  if (way !== 'docker' && way !== 'launcher')
    throw new ConfigError(`WITNESS_NEO4J must be "docker" or "launcher", got ${JSON.stringify(way)}`);
  return way;
}

function heapMb(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError(`WITNESS_NEO4J_HEAP_MB must be a positive integer (MB), got ${JSON.stringify(value)}`);
  return n;
}
