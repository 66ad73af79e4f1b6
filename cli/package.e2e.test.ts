/**
 * Witness as a real dependency: `npm pack` a clean copy of this checkout (its `prepare` script
 * compiles dist/), install the tarball into a fresh project, declare a suite there as the README
 * shows and run it with `npx vitest`; run the installed `witness` command; check that every file
 * the compiled modules read is in the package and that the shipped types check a user's suite.
 *
 * Offline and quick: the project gets a lockfile cut from ours (testing/consumer-lock.ts), so `npm ci
 * --offline` takes every package from the npm cache; install scripts are skipped and
 * better-sqlite3's compiled addon is copied from this checkout (same version, same Node), since
 * without network its install script would rebuild SQLite from source for minutes.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResultsFile } from '../reports/results-file.ts';
import { consumerLock, type Lockfile } from '../testing/consumer-lock.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; version: string };

/** This process's environment without Witness settings, model keys or npm's per-script variables. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(WITNESS_|OPENAI_|NLRX_)/.test(key)) continue;
    if (/^npm_/.test(key) && !/^npm_config_(cache|userconfig|registry)$/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', npm_config_update_notifier: 'false', ...extra };
}

function run(command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: cleanEnv(extra), encoding: 'utf8', timeout: 120_000 });
}

/** Fails with the command's output when it did not exit 0. */
function ok(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) {
    throw new Error(`${what} exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** The files of this checkout as a clean clone would have them (tracked and new, not ignored). */
function checkoutFiles(): string[] {
  const listed = ok(run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], repo), 'git ls-files');
  return listed
    .split('\0')
    .filter((file) => file && !file.startsWith('node_modules') && !file.startsWith('neo4j/lib'))
    .filter((file) => existsSync(join(repo, file)));
}

let work: string;
let project: string;
let installed: string;
const timings: string[] = [];

function timed<T>(label: string, step: () => T): T {
  const started = performance.now();
  const value = step();
  timings.push(`${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return value;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'witness-package-'));
  const source = join(work, 'source');
  timed('copy', () => {
    for (const file of checkoutFiles()) {
      mkdirSync(dirname(join(source, file)), { recursive: true });
      copyFileSync(join(repo, file), join(source, file));
    }
    // The build needs the compiler, which is a development dependency of this checkout.
    symlinkSync(join(repo, 'node_modules'), join(source, 'node_modules'));
  });
  timed('npm pack', () => ok(run('npm', ['pack', '--pack-destination', work], source), 'npm pack'));
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${work}`);

  project = join(work, 'project');
  mkdirSync(project);
  const spec = `file:../${tarball}`;
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'user-project', private: true, type: 'module', dependencies: { [manifest.name]: spec } }, null, 2)}\n`,
  );
  const integrity = `sha512-${createHash('sha512')
    .update(readFileSync(join(work, tarball)))
    .digest('base64')}`;
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as Lockfile;
  writeFileSync(
    join(project, 'package-lock.json'),
    JSON.stringify(consumerLock(lock, 'user-project', `../${tarball}`, integrity), null, 2),
  );
  timed('npm ci', () =>
    ok(run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], project), 'npm ci --offline'),
  );
  installed = join(project, 'node_modules', manifest.name);

  // better-sqlite3's addon, as its (skipped) install script would have built it.
  const ours = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const theirs = join(project, 'node_modules', 'better-sqlite3');
  const version = (dir: string) =>
    (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  if (version(ours) !== version(theirs)) {
    throw new Error(
      `better-sqlite3 ${version(theirs)} was installed, this checkout has ${version(ours)}: the addon cannot be reused`,
    );
  }
  mkdirSync(join(theirs, 'build', 'Release'), { recursive: true });
  copyFileSync(
    join(ours, 'build', 'Release', 'better_sqlite3.node'),
    join(theirs, 'build', 'Release', 'better_sqlite3.node'),
  );
}, 240_000);

afterAll(() => {
  process.stdout.write(`package test: ${timings.join(', ')}\n`);
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

describe('the packed tarball in a fresh project', () => {
  it('ships the compiled modules, the types and the runtime files, and no sources or tests', () => {
    expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'reports', 'reporter.js'))).toBe(true);
    const shipped = readdirSync(installed, { recursive: true, encoding: 'utf8' }).filter(
      (f) => !f.includes('node_modules'),
    );
    expect(shipped.filter((file) => /\.test\.|\.eval\.ts$/.test(file))).toEqual([]);
    // TypeScript sources ship only where they are read as text: the Meta-Harness seed harnesses.
    const sources = shipped.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
    expect(sources.filter((file) => !file.startsWith(join('dist', 'optimizers', 'meta-harness', 'seeds')))).toEqual([]);
    expect(sources.length).toBeGreaterThan(0);
    expect(existsSync(join(installed, 'tsconfig.build.json'))).toBe(false);
  });

  it('runs a suite declared as the README shows with `npx vitest`, and the reporter writes the results', async () => {
    mkdirSync(join(project, 'prompts'));
    writeFileSync(
      join(project, 'prompts', 'my-regexes.md'),
      'Write an ECMAScript regex that fully matches: {{description}}\nAnswer in a ```regex block.\n',
    );
    writeFileSync(
      join(project, 'vitest.config.mjs'),
      "export default { test: { include: ['**/*.eval.ts'], reporters: ['default', 'witness/reporter'] } };\n",
    );
    writeFileSync(
      join(project, 'my-regexes.eval.ts'),
      `import { defineBenchmark, pickStrategies, regexOracle } from 'witness';

defineBenchmark({
  name: 'my-regexes',
  tasks: [
    { id: 'zip', description: 'a five-digit US ZIP code', gold: '[0-9]{5}' },
    { id: 'hex', description: 'a CSS hex colour such as #a0f or #A00FF0', gold: '#([0-9a-fA-F]{3}){1,2}' },
  ],
  oracle: regexOracle(),
  strategies: pickStrategies('zero-shot', 'diagnostic'),
  prompt: 'prompts/my-regexes.md',
});
`,
    );
    const vitest = timed('npx vitest', () => run('npx', ['vitest', 'run'], project, { npm_config_offline: 'true' }));
    expect(vitest.status, `${vitest.stdout}\n${vitest.stderr}`).toBe(0);
    expect(vitest.stdout).toMatch(/Tests +4 passed \(4\)/);
    expect(vitest.stdout).toMatch(/my-regexes · sim \(privileged\)/);
    const results = await readResultsFile(join(project, 'witness-out', 'results.json'));
    expect(results.trajectories.map((t) => `${t.taskId}/${t.strategy}/${t.outcome.status}`).sort()).toEqual([
      expect.stringMatching(/^hex\/diagnostic\/(solved|unsolved)$/),
      expect.stringMatching(/^hex\/zero-shot\/(solved|unsolved)$/),
      expect.stringMatching(/^zip\/diagnostic\/(solved|unsolved)$/),
      expect.stringMatching(/^zip\/zero-shot\/(solved|unsolved)$/),
    ]);
    expect(existsSync(join(project, 'witness-out', 'report.html'))).toBe(true);
  });

  it('installs a `witness` command that runs the compiled CLI, SQLite child processes and shipped fixtures included', () => {
    expect(ok(run('npx', ['witness', '--version'], project), 'witness --version').trim()).toBe(manifest.version);
    const help = ok(run('npx', ['witness', '--help'], project), 'witness --help');
    expect(help).toMatch(/-V, --version/);
    const check = run('npx', ['witness', 'check', 'regex', '--gold', '[0-9]{5}', '--candidate', '\\d{5}'], project);
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/equivalent yes/);

    // The gold SQL of the shipped BIRD fixtures as predictions: every one correct.
    const fixtures = join(installed, 'fixtures', 'bird');
    const questions = JSON.parse(readFileSync(join(fixtures, 'dev.json'), 'utf8')) as { SQL: string; db_id: string }[];
    const predictions = Object.fromEntries(
      questions.map((q, i) => [String(i), `${q.SQL}\t----- bird -----\t${q.db_id}`]),
    );
    writeFileSync(join(project, 'predict_dev.json'), JSON.stringify(predictions));
    const bird = run(
      'npx',
      ['witness', 'eval', 'bird', '--data', fixtures, '--predictions', 'predict_dev.json'],
      project,
    );
    expect(bird.status, bird.stderr).toBe(0);
    expect(bird.stdout).toMatch(new RegExp(`${questions.length} questions: correct ${questions.length}\\b`));
    expect(bird.stderr).not.toMatch(/tsx/);

    // The SQLite child the installed command runs is the build's one-file bundle; hostile answers get
    // the same named verdicts from it as from the sources' child.mjs.
    expect(existsSync(join(installed, 'dist', 'oracles', 'sql', 'child.cjs'))).toBe(true);
    const [first] = questions;
    if (!first) throw new Error('the BIRD fixtures have no question');
    const hostile = [
      first.SQL,
      'SELEC 1',
      `DELETE FROM ${/\bFROM\s+([A-Za-z_][\w]*)/i.exec(first.SQL)?.[1] ?? 'x'}`,
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
      'SELECT 1; SELECT 2',
    ];
    writeFileSync(
      join(project, 'hostile.json'),
      JSON.stringify(
        Object.fromEntries(hostile.map((sql, i) => [String(i), `${sql}\t----- bird -----\t${first.db_id}`])),
      ),
    );
    writeFileSync(
      join(project, 'hostile-dev.json'),
      JSON.stringify(hostile.map((_, i) => ({ ...first, question_id: i }))),
    );
    const scored = run(
      'npx',
      [
        'witness',
        'eval',
        'bird',
        ...['--data', fixtures, '--questions', 'hostile-dev.json', '--predictions', 'hostile.json'],
        ...['--timeout', '2', '--no-gold-cache', '--json'],
      ],
      project,
    );
    expect(scored.status, scored.stderr).toBe(0);
    const statuses = (JSON.parse(scored.stdout) as { questions: { status: string }[] }).questions.map((q) => q.status);
    expect(statuses).toEqual(['correct', 'error', 'unsafe', 'timeout', 'unsafe']);
  });

  it('holds every file a compiled module reads by path: next to it (import.meta.url) or from the package root', () => {
    const missing: string[] = [];
    const dist = join(installed, 'dist');
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.js')) continue;
      const path = join(dist, file);
      const code = readFileSync(path, 'utf8');
      // new URL('./child.mjs', import.meta.url), new URL(`./html/${name}`, import.meta.url): the literal folder part.
      for (const match of code.matchAll(/new URL\((['`])([^'`$]*)[^'`]*\1, import\.meta\.url\)/g)) {
        const target = fileURLToPath(new URL(match[2] as string, `file://${path}`));
        if (!existsSync(target)) missing.push(`${file}: ${match[0]} → ${relative(installed, target)}`);
      }
      // packagePath('fixtures', 'bird'), packagePath('prompts', 'hero', `${name}.md`): the literal
      // segments, when nothing but a file name may follow them (a variable could be '../x').
      for (const match of code.matchAll(/packagePath\(((?:\s*'[^']*'\s*,?)+)(\)|\s*`)/g)) {
        const segments = [...(match[1] as string).matchAll(/'([^']*)'/g)].map((m) => m[1] as string);
        const target = join(installed, ...segments);
        if (!existsSync(target)) missing.push(`${file}: ${match[0]} → ${relative(installed, target)}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("finds the default suites' fixtures and seed prompts inside the installed package", () => {
    const script = `
      import { existsSync } from 'node:fs';
      import { loadConfig } from ${JSON.stringify(join(installed, 'dist', 'core', 'config.js'))};
      import { SUITES } from ${JSON.stringify(join(installed, 'dist', 'oracles', 'suites.js'))};
      import { cypherBenchData } from ${JSON.stringify(join(installed, 'dist', 'oracles', 'cypher', 'spec.js'))};
      const inside = (path) => existsSync(path) && path.startsWith(${JSON.stringify(installed)});
      const { config } = loadConfig(process.cwd(), {});
      const seen = [];
      for (const suite of SUITES) {
        const { tasks, issues } = await suite.tasks(config);
        seen.push({ name: suite.name, tasks: tasks.length, issues: issues.length, prompt: inside(suite.prompt) });
      }
      // CypherBench's graphs too (its spec needs a Neo4j, started by the suite).
      const cypher = cypherBenchData(config);
      seen.push({ name: 'cypherbench graphs', tasks: cypher.graphs.length, issues: cypher.issues.length, prompt: cypher.graphs.every((g) => inside(g.file)) });
      process.stdout.write(JSON.stringify(seen));
    `;
    const specs = JSON.parse(
      ok(run(process.execPath, ['--input-type=module', '-e', script], project), 'the specs'),
    ) as {
      name: string;
      tasks: number;
      issues: number;
      prompt: boolean;
    }[];
    expect(specs.map((s) => s.name)).toEqual([
      'bird',
      'bigcodebench',
      'dscodebench',
      'nl-rx',
      'cypherbench',
      'cypherbench graphs',
    ]);
    for (const spec of specs)
      expect(spec, spec.name).toMatchObject({ issues: 0, prompt: true, tasks: expect.any(Number) });
    expect(Math.min(...specs.map((s) => s.tasks))).toBeGreaterThan(0);
  });

  it("checks a user's suite against the shipped declarations, and refuses a wrong one", () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true },
        include: ['*.ts'],
      }),
    );
    const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
    ok(run(process.execPath, [tsc, '-p', '.'], project), 'tsc on the README suite');
    writeFileSync(
      join(project, 'wrong.ts'),
      "import { defineBenchmark, regexOracle } from 'witness';\ndefineBenchmark({ name: 7, tasks: [], oracle: regexOracle(), strategies: [], prompt: 'p.md' });\n",
    );
    const wrong = run(process.execPath, [tsc, '-p', '.'], project);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.ts\(2,\d+\): error TS2322/);
  });
});
