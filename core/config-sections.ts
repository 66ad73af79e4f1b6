/**
 * The config sections that say where things are and how engines start: per-suite settings, the
 * Python sandbox and the Neo4j server. Read from the file's `suites`, `python` and `neo4j` keys and
 * from the environment variables listed in docs/configuration.md (the environment wins).
 */
import { join, resolve } from 'node:path';
import { bool, ConfigError, int, object, oneOf, onlyKnown, positive, text } from './config-values.ts';
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

type Where = (key: string) => string;

/** Applies the file's `suites`, `python`, `neo4j` and `proposer` keys; relative paths resolve against `base`, the file's folder. */
export function applySectionsFile(
  target: SectionSettings,
  raw: Record<string, unknown>,
  where: Where,
  base: string,
): void {
  const path = (value: unknown, key: string) => resolve(base, text(value, where(key)));
  const suites = object(raw.suites, where('suites'));
  if (suites) {
    onlyKnown(suites, SUITE_NAMES, (k) => where(`suites.${k}`));
    for (const name of SUITE_NAMES) {
      const suite = object(suites[name], where(`suites.${name}`));
      if (!suite) continue;
      const key = (k: string) => `suites.${name}.${k}`;
      onlyKnown(suite, suiteKeys(name), (k) => where(key(k)));
      if (suite.data !== undefined) target.suites[name].data = path(suite.data, key('data'));
    }
    const bird = object(suites.bird, where('suites.bird'));
    if (bird?.vesIterations !== undefined)
      target.suites.bird.vesIterations = int(bird.vesIterations, where('suites.bird.vesIterations'), 0);
    const bcb = object(suites.bigcodebench, where('suites.bigcodebench'));
    if (bcb?.timeoutPerTaskS !== undefined)
      target.suites.bigcodebench.timeoutPerTaskS = positive(
        bcb.timeoutPerTaskS,
        where('suites.bigcodebench.timeoutPerTaskS'),
      );
    if (bcb?.subset !== undefined)
      target.suites.bigcodebench.subset = oneOf(bcb.subset, BIGCODEBENCH_SUBSETS, where('suites.bigcodebench.subset'));
    if (bcb?.split !== undefined)
      target.suites.bigcodebench.split = oneOf(bcb.split, BIGCODEBENCH_SPLITS, where('suites.bigcodebench.split'));
  }
  const python = object(raw.python, where('python'));
  if (python) {
    onlyKnown(python, ['sandbox', 'interpreter', 'fullProfileDir'], (k) => where(`python.${k}`));
    if (python.sandbox !== undefined)
      target.python.sandbox = oneOf(python.sandbox, PYTHON_SANDBOXES, where('python.sandbox'));
    if (python.interpreter !== undefined) target.python.interpreter = path(python.interpreter, 'python.interpreter');
    if (python.fullProfileDir !== undefined)
      target.python.fullProfileDir = path(python.fullProfileDir, 'python.fullProfileDir');
  }
  const neo4j = object(raw.neo4j, where('neo4j'));
  if (neo4j) {
    const keys = ['uri', 'username', 'password', 'way', 'heapMb', 'java', 'dockerHost'];
    onlyKnown(neo4j, [...keys, 'keepGraphs', 'graphStore', 'keptGraphs'], (k) => where(`neo4j.${k}`));
    if (neo4j.uri !== undefined) target.neo4j.uri = text(neo4j.uri, where('neo4j.uri'));
    if (neo4j.username !== undefined) target.neo4j.username = text(neo4j.username, where('neo4j.username'));
    if (neo4j.password !== undefined) target.neo4j.password = text(neo4j.password, where('neo4j.password'));
    if (neo4j.way !== undefined) target.neo4j.way = oneOf(neo4j.way, NEO4J_WAYS, where('neo4j.way'));
    if (neo4j.heapMb !== undefined) target.neo4j.heapMb = int(neo4j.heapMb, where('neo4j.heapMb'), 1);
    if (neo4j.java !== undefined) target.neo4j.java = path(neo4j.java, 'neo4j.java');
    if (neo4j.dockerHost !== undefined) target.neo4j.dockerHost = text(neo4j.dockerHost, where('neo4j.dockerHost'));
    if (neo4j.keepGraphs !== undefined) target.neo4j.keepGraphs = bool(neo4j.keepGraphs, where('neo4j.keepGraphs'));
    if (neo4j.graphStore !== undefined) target.neo4j.graphStore = path(neo4j.graphStore, 'neo4j.graphStore');
    if (neo4j.keptGraphs !== undefined) target.neo4j.keptGraphs = int(neo4j.keptGraphs, where('neo4j.keptGraphs'), 1);
  }
  const proposer = object(raw.proposer, where('proposer'));
  if (proposer) {
    onlyKnown(proposer, ['model', 'maxSteps', 'commandTimeoutS'], (k) => where(`proposer.${k}`));
    if (proposer.model !== undefined) target.proposer.model = text(proposer.model, where('proposer.model'));
    if (proposer.maxSteps !== undefined)
      target.proposer.maxSteps = int(proposer.maxSteps, where('proposer.maxSteps'), 1);
    if (proposer.commandTimeoutS !== undefined)
      target.proposer.commandTimeoutS = positive(proposer.commandTimeoutS, where('proposer.commandTimeoutS'));
  }
}

function suiteKeys(name: (typeof SUITE_NAMES)[number]): string[] {
  if (name === 'bird') return ['data', 'vesIterations'];
  if (name === 'bigcodebench') return ['data', 'timeoutPerTaskS', 'subset', 'split'];
  return ['data'];
}

type Env = Record<string, string | undefined>;

/** Applies the environment variables of these sections; relative paths resolve against `root`. */
export function applySectionsEnv(target: SectionSettings, env: Env, root: string): void {
  const get = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : (env[name] as string));
  const path = (name: string) => {
    const value = get(name);
    return value === undefined ? undefined : resolve(root, text(value, name));
  };
  const integer = (name: string, min: number) => {
    const value = get(name);
    return value === undefined ? undefined : int(Number(value), name, min);
  };
  const set = <T>(value: T | undefined, apply: (value: T) => void) => {
    if (value !== undefined) apply(value);
  };
  const { suites, python, neo4j } = target;
  // NLRX_TURK_DIR is the older name of WITNESS_NLRX_DATA.
  set(path('NLRX_TURK_DIR'), (v) => (suites['nl-rx'].data = v));
  for (const name of SUITE_NAMES) set(path(SUITE_DATA_ENV[name]), (v) => (suites[name].data = v));
  set(integer('WITNESS_VES_ITERATIONS', 0), (v) => (suites.bird.vesIterations = v));
  set(
    get('BIGCODEBENCH_TIMEOUT_PER_TASK'),
    (v) => (suites.bigcodebench.timeoutPerTaskS = positive(Number(v), 'BIGCODEBENCH_TIMEOUT_PER_TASK')),
  );
  set(
    get('WITNESS_BIGCODEBENCH_SUBSET'),
    (v) => (suites.bigcodebench.subset = oneOf(v, BIGCODEBENCH_SUBSETS, 'WITNESS_BIGCODEBENCH_SUBSET')),
  );
  set(get('WITNESS_PYTHON_SANDBOX'), (v) => (python.sandbox = oneOf(v, PYTHON_SANDBOXES, 'WITNESS_PYTHON_SANDBOX')));
  set(path('WITNESS_PYTHON'), (v) => (python.interpreter = v));
  set(path('WITNESS_PYTHON_FULL_DIR'), (v) => (python.fullProfileDir = v));
  set(get('NEO4J_URI')?.trim() || undefined, (v) => (neo4j.uri = v));
  set(get('NEO4J_USERNAME'), (v) => (neo4j.username = v));
  set(get('NEO4J_PASSWORD'), (v) => (neo4j.password = v));
  set(get('WITNESS_NEO4J')?.trim() || undefined, (v) => (neo4j.way = neo4jWay(v)));
  set(get('WITNESS_NEO4J_HEAP_MB'), (v) => (neo4j.heapMb = heapMb(v)));
  set(get('WITNESS_JAVA'), (v) => (neo4j.java = v));
  // JAVA_HOME is where Java is installed, like PATH a lookup rather than a setting: the last resort.
  if (neo4j.java === undefined && get('JAVA_HOME')) neo4j.java = join(get('JAVA_HOME') as string, 'bin', 'java');
  set(get('DOCKER_HOST'), (v) => (neo4j.dockerHost = v));
  set(get('WITNESS_NEO4J_KEEP_GRAPHS'), (v) => (neo4j.keepGraphs = flag(v, 'WITNESS_NEO4J_KEEP_GRAPHS')));
  set(path('WITNESS_NEO4J_GRAPH_STORE'), (v) => (neo4j.graphStore = v));
  set(integer('WITNESS_NEO4J_KEPT_GRAPHS', 1), (v) => (neo4j.keptGraphs = v));
  set(integer('PERF_PYTHON_ROUNDS', 1), (v) => (target.perf.pythonRounds = v));
  set(integer('PERF_SUITE_RUNS', 1), (v) => (target.perf.suiteRuns = v));
  set(get('WITNESS_PROPOSER_MODEL')?.trim() || undefined, (v) => (target.proposer.model = v));
  set(integer('WITNESS_PROPOSER_MAX_STEPS', 1), (v) => (target.proposer.maxSteps = v));
  set(
    get('WITNESS_PROPOSER_TIMEOUT_S'),
    (v) => (target.proposer.commandTimeoutS = positive(Number(v), 'WITNESS_PROPOSER_TIMEOUT_S')),
  );
}

/** `1`/`true` or `0`/`false`. */
function flag(value: string, name: string): boolean {
  return bool(value === '1' || value === 'true' ? true : value === '0' || value === 'false' ? false : value, name);
}

function neo4jWay(value: string): Neo4jSettings['way'] {
  if (value !== 'docker' && value !== 'launcher')
    throw new ConfigError(`WITNESS_NEO4J must be "docker" or "launcher", got ${JSON.stringify(value)}`);
  return value;
}

function heapMb(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError(`WITNESS_NEO4J_HEAP_MB must be a positive integer (MB), got ${JSON.stringify(value)}`);
  return n;
}
