/** The suites, python, neo4j and perf sections of the config, the relative-path rule and the precedence. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const root = () => mkdtempSync(join(tmpdir(), 'witness-config-sections-'));
const writeConfig = (path: string, value: object) => writeFileSync(path, JSON.stringify(value));

describe('config sections', () => {
  it('defaults: VES with 10 runs, no suite data, the auto sandbox, the full profile under .witness, no Neo4j settings', () => {
    const dir = root();
    const { config } = loadConfig(dir, {});
    expect(config.suites).toEqual({
      bird: { vesIterations: 10 },
      bigcodebench: { subset: 'full' },
      dscodebench: {},
      'nl-rx': {},
      cypherbench: {},
    });
    expect(config.python).toEqual({ sandbox: 'auto', fullProfileDir: join(dir, '.witness', 'python-full') });
    expect(config.neo4j).toEqual({ keepGraphs: true, graphStore: join(dir, '.witness', 'neo4j'), keptGraphs: 8 });
    expect(config.perf).toEqual({ pythonRounds: 20, suiteRuns: 3 });
  });

  it('maps every environment variable onto its key', () => {
    const dir = root();
    const { config } = loadConfig(dir, {
      WITNESS_DSCODEBENCH_DATA: '/data/ds.jsonl',
      WITNESS_BIGCODEBENCH_DATA: '/data/bcb.jsonl',
      BIGCODEBENCH_TIMEOUT_PER_TASK: '120',
      WITNESS_BIGCODEBENCH_SUBSET: 'hard',
      WITNESS_CYPHERBENCH_DATA: '/data/cypherbench',
      NLRX_TURK_DIR: '/data/turk',
      WITNESS_VES_ITERATIONS: '0',
      WITNESS_PYTHON_SANDBOX: 'process',
      WITNESS_PYTHON: '/opt/py/bin/python3',
      WITNESS_PYTHON_FULL_DIR: '/opt/full',
      NEO4J_URI: 'bolt://db:7687',
      NEO4J_USERNAME: 'neo4j',
      NEO4J_PASSWORD: 'secret',
      WITNESS_NEO4J: 'launcher',
      WITNESS_NEO4J_HEAP_MB: '768',
      WITNESS_NEO4J_KEEP_GRAPHS: '0',
      WITNESS_NEO4J_GRAPH_STORE: '/data/graphs',
      WITNESS_NEO4J_KEPT_GRAPHS: '3',
      JAVA_HOME: '/opt/jdk',
      DOCKER_HOST: 'tcp://docker:2375',
      PERF_PYTHON_ROUNDS: '5',
      PERF_SUITE_RUNS: '2',
      WITNESS_RUN_ID: 'run-1',
    });
    expect(config.suites).toEqual({
      bird: { vesIterations: 0 },
      bigcodebench: { data: '/data/bcb.jsonl', timeoutPerTaskS: 120, subset: 'hard' },
      dscodebench: { data: '/data/ds.jsonl' },
      'nl-rx': { data: '/data/turk' },
      cypherbench: { data: '/data/cypherbench' },
    });
    expect(config.python).toEqual({
      sandbox: 'process',
      interpreter: '/opt/py/bin/python3',
      fullProfileDir: '/opt/full',
    });
    expect(config.neo4j).toEqual({
      uri: 'bolt://db:7687',
      username: 'neo4j',
      password: 'secret',
      way: 'launcher',
      heapMb: 768,
      java: '/opt/jdk/bin/java',
      dockerHost: 'tcp://docker:2375',
      keepGraphs: false,
      graphStore: '/data/graphs',
      keptGraphs: 3,
    });
    expect(config.perf).toEqual({ pythonRounds: 5, suiteRuns: 2 });
    expect(config.run.id).toBe('run-1');
    expect(loadConfig(dir, { WITNESS_JAVA: '/opt/java', JAVA_HOME: '/opt/jdk' }).config.neo4j.java).toBe('/opt/java');
  });

  it('takes the environment over the file over the defaults', () => {
    const dir = root();
    writeConfig(join(dir, 'witness.config.json'), {
      suites: { bird: { vesIterations: 3 } },
      python: { sandbox: 'bwrap' },
      neo4j: { uri: 'bolt://file:7687', heapMb: 600 },
    });
    const fromFile = loadConfig(dir, {}).config;
    expect([
      fromFile.suites.bird.vesIterations,
      fromFile.python.sandbox,
      fromFile.neo4j.uri,
      fromFile.neo4j.heapMb,
    ]).toEqual([3, 'bwrap', 'bolt://file:7687', 600]);
    const fromEnv = loadConfig(dir, {
      WITNESS_VES_ITERATIONS: '5',
      WITNESS_PYTHON_SANDBOX: 'docker',
      NEO4J_URI: 'bolt://env:7687',
    }).config;
    expect([
      fromEnv.suites.bird.vesIterations,
      fromEnv.python.sandbox,
      fromEnv.neo4j.uri,
      fromEnv.neo4j.heapMb,
    ]).toEqual([5, 'docker', 'bolt://env:7687', 600]);
  });

  it('resolves relative paths of the file against its folder, and of the environment against the project root', () => {
    const project = root();
    const elsewhere = join(project, 'conf', 'nested');
    mkdirSync(elsewhere, { recursive: true });
    const file = join(elsewhere, 'w.json');
    writeConfig(file, {
      outDir: 'out',
      storeDir: '../store',
      cache: { path: 'c.sqlite' },
      gate: { baseline: 'b.json' },
      suites: { dscodebench: { data: 'ds.jsonl' }, 'nl-rx': { data: 'turk' } },
      python: { interpreter: 'venv/bin/python3', fullProfileDir: 'full' },
    });
    const { config } = loadConfig(project, { WITNESS_CONFIG: 'conf/nested/w.json' });
    expect([config.outDir, config.storeDir, config.cache.path, config.gate.baseline]).toEqual([
      join(elsewhere, 'out'),
      join(project, 'conf', 'store'),
      join(elsewhere, 'c.sqlite'),
      join(elsewhere, 'b.json'),
    ]);
    expect([config.suites.dscodebench.data, config.suites['nl-rx'].data]).toEqual([
      join(elsewhere, 'ds.jsonl'),
      join(elsewhere, 'turk'),
    ]);
    expect([config.python.interpreter, config.python.fullProfileDir]).toEqual([
      join(elsewhere, 'venv/bin/python3'),
      join(elsewhere, 'full'),
    ]);
    const env = loadConfig(project, {
      WITNESS_CONFIG: 'conf/nested/w.json',
      WITNESS_OUT: 'o',
      WITNESS_STORE: 's',
      NLRX_TURK_DIR: 't',
      WITNESS_PYTHON_FULL_DIR: 'f',
    }).config;
    expect([env.outDir, env.storeDir, env.suites['nl-rx'].data, env.python.fullProfileDir]).toEqual([
      join(project, 'o'),
      join(project, 's'),
      join(project, 't'),
      join(project, 'f'),
    ]);
  });

  it('names the source of every invalid value: the variable, or the file and key path', () => {
    const dir = root();
    const env = (name: string, value: string, message: RegExp) =>
      expect(() => loadConfig(dir, { [name]: value })).toThrow(message);
    env('WITNESS_VES_ITERATIONS', '-1', /^WITNESS_VES_ITERATIONS: expected an integer ≥ 0, got -1/);
    env(
      'BIGCODEBENCH_TIMEOUT_PER_TASK',
      'soon',
      /^BIGCODEBENCH_TIMEOUT_PER_TASK: expected a positive number, got null/,
    );
    env('WITNESS_BIGCODEBENCH_SUBSET', 'easy', /^WITNESS_BIGCODEBENCH_SUBSET: expected one of full, hard, got "easy"/);
    env(
      'WITNESS_PYTHON_SANDBOX',
      'chroot',
      /^WITNESS_PYTHON_SANDBOX: expected one of auto, bwrap, docker, process, got "chroot"/,
    );
    env('WITNESS_NEO4J', 'podman', /^WITNESS_NEO4J must be "docker" or "launcher", got "podman"/);
    env('WITNESS_NEO4J_HEAP_MB', '0', /^WITNESS_NEO4J_HEAP_MB must be a positive integer \(MB\), got "0"/);
    env('PERF_SUITE_RUNS', 'x', /^PERF_SUITE_RUNS: expected an integer ≥ 1/);
    env('WITNESS_RUN_ID', '../up', /^WITNESS_RUN_ID: a run id may only contain/);
    const file = join(dir, 'witness.config.json');
    const bad = (value: object, message: RegExp) => {
      writeConfig(file, value);
      expect(() => loadConfig(dir, {})).toThrow(ConfigError);
      expect(() => loadConfig(dir, {})).toThrow(message);
    };
    const at = (key: string) => new RegExp(`^${file.replace(/[.\\/]/g, '\\$&')}: ${key.replace(/[.[\]"]/g, '\\$&')}: `);
    bad({ suites: { bird: { vesIterations: 1.5 } } }, at('suites.bird.vesIterations'));
    bad({ suites: { bigcodebench: { timeoutPerTaskS: 0 } } }, at('suites.bigcodebench.timeoutPerTaskS'));
    bad({ suites: { bigcodebench: { subset: 'easy' } } }, at('suites.bigcodebench.subset'));
    bad({ suites: { bigcodebench: { split: 'test' } } }, at('suites.bigcodebench.split'));
    bad({ suites: { cypherbench: { split: 'test' } } }, at('suites.cypherbench.split'));
    bad({ suites: { dscodebench: { data: '' } } }, at('suites.dscodebench.data'));
    bad({ suites: { 'nl-rx': { dir: 'x' } } }, at('suites.nl-rx.dir'));
    bad({ suites: { spider: {} } }, at('suites.spider'));
    bad({ python: { sandbox: 'chroot' } }, at('python.sandbox'));
    bad({ python: { interpreter: 3 } }, at('python.interpreter'));
    bad({ python: { venv: 'x' } }, at('python.venv'));
    bad({ neo4j: { way: 'podman' } }, at('neo4j.way'));
    bad({ neo4j: { heapMb: 0 } }, at('neo4j.heapMb'));
    bad({ neo4j: { port: 7687 } }, at('neo4j.port'));
  });
});
