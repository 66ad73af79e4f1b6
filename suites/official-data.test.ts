/**
 * The bird and nl-rx suites on generated folders of the official layouts, through the config
 * (witness.config.json in a project), through `witness data check`, and through `witness bench`;
 * and a hostile BIRD folder (items pointing outside it) through both, with the scripted model server.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutSuiteData } from '../testing/child-env.ts';
import { loadConfig } from '../core/config.ts';
import { TERMINAL_ACTIVE } from '../core/hostile/text.ts';
import { startTestModelServer } from '../testing/model-server.ts';
import { findNlRxTurk } from '../oracles/regex/loader.ts';
import { writeNlRxRaw, writeNlRxSplits } from '../testing/layouts/regex.ts';
import { OUTSIDE_TABLE, writeHostileBirdFolder } from '../oracles/sql/hostile/datasets.ts';
import { OFFICIAL_BIRD_ITEMS, writeBirdFolder } from '../testing/layouts/sql.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { nlRxSpec } from '../oracles/regex/spec.ts';
import { birdSpec } from '../oracles/sql/spec.ts';
import { runConfig } from '../core/run-config.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'witness.js');
const made: string[] = [];
const folder = (prefix = 'witness-official-') => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Runs the CLI; resolves with its status and output whatever the status. */
async function witness(args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: root,
      env: withoutSuiteData(process.env, { NO_COLOR: '1', FORCE_COLOR: '0', ...env }),
      maxBuffer: 32 * 1024 * 1024,
      timeout: 240_000,
    });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { status: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('the suites on official layouts through the config', () => {
  it('suites.bird.data in witness.config.json (relative to the file) sets the bird tasks; the environment wins', async () => {
    const project = folder();
    writeBirdFolder(join(project, 'bird-dev'), 'dev');
    const train = writeBirdFolder(folder(), 'train', OFFICIAL_BIRD_ITEMS.slice(0, 2));
    writeFileSync(join(project, 'witness.config.json'), JSON.stringify({ suites: { bird: { data: 'bird-dev' } } }));
    const fromFile = birdSpec(loadConfig(project, {}).config, { split: undefined });
    const fromEnv = birdSpec(loadConfig(project, { WITNESS_BIRD_DATA: train.dir }).config, { split: undefined });
    try {
      expect(fromFile.tasks.tasks.map((t) => t.description)).toEqual(OFFICIAL_BIRD_ITEMS.map((q) => q.question));
      expect(fromFile.tasks.tasks[0]?.context?.db_path).toBe(
        join(project, 'bird-dev', 'dev_databases', 'toy_shop', 'toy_shop.sqlite'),
      );
      expect(fromEnv.tasks.tasks.map((t) => [t.id, t.meta?.split])).toEqual([
        ['0', 'train'],
        ['1', 'train'],
      ]);
      expect(() => birdSpec(loadConfig(project, {}).config, { split: 'train' })).toThrow(
        /no BIRD train questions file in .*bird-dev \(it has: dev\)/,
      );
    } finally {
      await Promise.all([fromFile.oracle.dispose?.(), fromEnv.oracle.dispose?.()]);
    }
  });

  it("suites['nl-rx'].data with a split runs DeepRegex's split files; an unknown split names the known ones", () => {
    const project = folder();
    writeNlRxSplits(join(project, 'turk'));
    writeFileSync(join(project, 'witness.config.json'), JSON.stringify({ suites: { 'nl-rx': { data: 'turk' } } }));
    const { config } = loadConfig(project, {});
    expect(nlRxSpec(config, { split: 'val' }).tasks.tasks.map((t) => t.id)).toEqual(['val-1']);
    expect(nlRxSpec(config, { split: undefined }).tasks.tasks.map((t) => t.id)).toEqual(['test-1', 'test-2']);
    expect(() => nlRxSpec(config, { split: 'dev' })).toThrow(
      'unknown nl-rx split "dev" (known: all, train, val, test)',
    );
    const raw = folder();
    writeNlRxRaw(raw);
    const legacy = loadConfig(project, { NLRX_TURK_DIR: raw }).config;
    expect(nlRxSpec(legacy, { split: undefined }).tasks.tasks).toHaveLength(6);
  });
});

describe('witness data check', () => {
  it('exits 0 on sound data, 1 naming each broken item (or a folder of another benchmark) and where the release is, 2 on usage errors', async () => {
    const sound = writeBirdFolder(folder(), 'dev-nested');
    const broken = writeBirdFolder(folder(), 'dev', [
      ...OFFICIAL_BIRD_ITEMS,
      { ...OFFICIAL_BIRD_ITEMS[0]!, question_id: 6, db_id: 'gone' },
    ]);
    const nlrx = folder();
    writeNlRxRaw(nlrx);
    writeNlRxSplits(nlrx);
    const [ok, bad, json, regex, none, configured, unset] = await Promise.all([
      witness(['data', 'check', '--suite', 'bird', '--data', sound.dir]),
      witness(['data', 'check', '--suite', 'bird', '--data', broken.dir]),
      witness(['data', 'check', '--suite', 'bird', '--data', broken.dir, '--json']),
      witness(['data', 'check', '--suite', 'nl-rx', '--data', nlrx]),
      witness(['data', 'check', '--suite', 'cypherbench', '--data', nlrx]),
      witness(['data', 'check', '--suite', 'nl-rx'], { WITNESS_NLRX_DATA: nlrx }),
      witness(['data', 'check', '--suite', 'bird']),
    ]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^bird data at .*: ok\n  dev\.questions 6 · dev\.invalid 0 · dev\.databases 2/);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain(
      `error    dev_databases/gone/gone.sqlite db_id "gone" (1 question): database not found: ${join(broken.databases, 'gone', 'gone.sqlite')}`,
    );
    expect(bad.stdout).toMatch(/The official BIRD-SQL data is published at https:\/\/bird-bench\.github\.io\/\n$/);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ suite: 'bird', ok: false, counts: { 'dev.questions': 7 } });
    expect(regex.status, regex.stderr).toBe(0);
    expect(regex.stdout).toMatch(/all\.pairs 6 · all\.invalidGolds 0 · train\.pairs 3 .* test\.pairs 2/);
    // A folder of another benchmark: the CypherBench checker names what is missing and where the release is.
    expect(none.status, none.stderr).toBe(1);
    expect(none.stdout).toContain('test.json');
    expect(none.stdout).toContain('https://huggingface.co/datasets/megagonlabs/cypherbench');
    // Without --data: the configured data, or a usage error saying how to configure it.
    expect(configured.status, configured.stderr).toBe(0);
    expect(configured.stdout).toBe(regex.stdout);
    expect(unset.status).toBe(2);
    expect(unset.stderr).toBe(
      'witness: give --data, or set suites.bird.data (WITNESS_BIRD_DATA) to check the configured data\n',
    );
  }, 120_000);
});

describe('witness data check --items', () => {
  it('lists what a run records as invalid data, and --write-invalid writes the list --exclude-tasks leaves out', async () => {
    const turk = folder();
    writeNlRxSplits(turk);
    // Test line 3: a digit that is a capital, the empty language under brics semantics.
    appendFileSync(join(turk, 'src-test.txt'), 'lines with a digit that is a capital\n');
    appendFileSync(join(turk, 'targ-test.txt'), '( [ <NUM> ] ) & ( [ <CAP> ] )\n');
    const list = join(folder(), 'invalid.txt');
    const [check, json] = await Promise.all([
      witness(['data', 'check', '--suite', 'nl-rx', '--data', turk, '--split', 'test', '--write-invalid', list]),
      witness(['data', 'check', '--suite', 'nl-rx', '--data', turk, '--split', 'test', '--items', '--json']),
    ]);
    expect(check.status, check.stderr).toBe(0);
    const emptyLanguage =
      'task test-3: the gold regex "([0-9])&([A-Z])" denotes the empty language (under dk.brics automaton semantics), so no task can be posed';
    expect(check.stdout).toContain(
      `nl-rx items posed as a run would (split test): 3 items, 2 posable, 1 invalid data (left out of the rates), 0 Witness cannot pose (harness errors: the run fails on them)\ninvalid  ${emptyLanguage}\n`,
    );
    expect(check.stderr).toContain(`witness: 1 invalid items written to ${list}`);
    expect(readFileSync(list, 'utf8').split('\n').slice(2)).toEqual([`# ${emptyLanguage}`, 'test-3', '']);
    expect(JSON.parse(json.stdout).items).toEqual({
      suite: 'nl-rx',
      split: 'test',
      items: 3,
      unposable: [{ id: 'test-3', kind: 'invalid-data', reason: emptyLanguage }],
    });

    const out = folder();
    const run = await witness(
      ['bench', 'suites/nl-rx.eval.ts', '--exclude-tasks', `@${list}`, '--suite', 'nl-rx', '-t', ' · zero-shot$'],
      {
        WITNESS_NLRX_DATA: turk,
        WITNESS_SPLIT: 'test',
        WITNESS_OUT: join(out, 'out'),
        WITNESS_STORE: join(out, 'store'),
      },
    );
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    const results = await readResultsFile(join(out, 'out', 'results.json'));
    expect(results.trajectories.map((t) => [t.taskId, t.outcome.status === 'invalid-data'])).toEqual([
      ['test-1', false],
      ['test-2', false],
    ]);
    expect(results.ledger).toEqual({ planned: 2, recorded: 2, lost: 0, notRun: [] });
  }, 120_000);
});

const realTurk = findNlRxTurk(runConfig().config.suites['nl-rx'].data);
if (realTurk === null) console.warn('NL-RX-Turk not found (WITNESS_NLRX_DATA): the real-data runs are skipped');
describe.runIf(realTurk !== null)('the real NL-RX-Turk release (WITNESS_NLRX_DATA)', () => {
  it('runs green with its empty-language golds listed as invalid data, and fails under --strict-data', async () => {
    // The first 20 pairs: tasks 1, 8, 10, 16 and 20 have golds that denote the empty language.
    const tasks = Array.from({ length: 20 }, (_, i) => String(i + 1)).join(',');
    const args = ['bench', '--suite', 'nl-rx', '--data', realTurk as string, '--tasks', tasks, '-t', ' · zero-shot$'];
    const dirs = (name: string) => ({ WITNESS_OUT: join(folder(), name), WITNESS_STORE: join(folder(), 'store') });
    const lenient = dirs('out');
    const [run, strict] = await Promise.all([
      witness(args, lenient),
      witness([...args, '--strict-data'], dirs('strict')),
    ]);
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(run.stdout).toContain('Invalid data: 5 items the dataset makes unposable (5 episodes');
    for (const id of ['1', '8', '10', '16', '20'])
      expect(run.stdout).toMatch(new RegExp(`\\n {2}nl-rx · ${id}: the gold regex .* denotes the empty language`));
    const results = await readResultsFile(join(lenient.WITNESS_OUT, 'results.json'));
    expect(results.summary[0]).toMatchObject({ strategy: 'zero-shot', n: 15, invalidData: 5, harnessErrors: 0 });
    expect(strict.status).toBe(1);
    expect(strict.stdout + strict.stderr).toMatch(/invalid data \(strict data\): task 1: the gold regex/);
  }, 240_000);

  it('data check --items counts the golds a run records as invalid data', async () => {
    const check = await witness(['data', 'check', '--suite', 'nl-rx', '--data', realTurk as string, '--items']);
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toContain(
      'nl-rx items posed as a run would (split default): 10,000 items, 8,441 posable, 1,559 invalid data (left out of the rates), 0 Witness cannot pose',
    );
  }, 240_000);
});

describe('witness bench on the official layouts', () => {
  it('runs the bird suite on a generated dev folder and the nl-rx suite on a DeepRegex split, listing each broken item as invalid data', async () => {
    const bird = writeBirdFolder(folder(), 'dev', [
      ...OFFICIAL_BIRD_ITEMS,
      { ...OFFICIAL_BIRD_ITEMS[0]!, question_id: 6, db_id: 'gone' },
      { ...OFFICIAL_BIRD_ITEMS[0]!, question_id: 7, SQL: '' },
    ]);
    const turk = folder();
    writeNlRxSplits(turk);
    // A test split with a gold that is not a regex (line 3), an empty description (line 4) and a
    // gold that denotes the empty language under brics semantics (line 5: a digit that is a capital).
    appendFileSync(
      join(turk, 'src-test.txt'),
      'lines with an unclosed group\n\nlines with a digit that is a capital\n',
    );
    appendFileSync(join(turk, 'targ-test.txt'), '( [ <NUM> ]\n. * <M0> . *\n( [ <NUM> ] ) & ( [ <CAP> ] )\n');
    const out = (name: string) => {
      const dir = join(folder(), name);
      mkdirSync(dir);
      return { WITNESS_OUT: join(dir, 'out'), WITNESS_STORE: join(dir, 'store'), WITNESS_RUN_ID: `official-${name}` };
    };
    const birdDirs = out('bird');
    const nlrxDirs = out('nl-rx');
    const only = ['-t', ' · (zero-shot|diagnostic)$'];
    const strictDirs = out('nl-rx-strict');
    const [birdRun, nlrxRun, strictRun] = await Promise.all([
      witness(['bench', 'suites/bird.eval.ts', ...only], {
        ...birdDirs,
        WITNESS_BIRD_DATA: bird.dir,
        WITNESS_VES_ITERATIONS: '0',
      }),
      witness(['bench', 'suites/nl-rx.eval.ts', ...only], {
        ...nlrxDirs,
        WITNESS_NLRX_DATA: turk,
        WITNESS_SPLIT: 'test',
      }),
      witness(['bench', '--strict-data', 'suites/nl-rx.eval.ts', ...only], {
        ...strictDirs,
        WITNESS_NLRX_DATA: turk,
        WITNESS_SPLIT: 'test',
      }),
    ]);
    // The questions with a missing database or a bad field are invalid data (listed, passing tests), the others run.
    expect(birdRun.status, birdRun.stderr.slice(-2000)).toBe(0);
    const birdResults = await readResultsFile(join(birdDirs.WITNESS_OUT, 'results.json'));
    const episodes = (ts: typeof birdResults.trajectories) =>
      ts.map((t) => `${t.taskId} ${t.strategy} ${t.outcome.status === 'invalid-data' ? 'invalid-data' : 'ran'}`).sort();
    expect(episodes(birdResults.trajectories)).toEqual(
      [
        ...['0', '1', '2', '3', '4', '5'].flatMap((id) => [`${id} diagnostic ran`, `${id} zero-shot ran`]),
        'question 6 (db_id "gone") diagnostic invalid-data',
        'question 6 (db_id "gone") zero-shot invalid-data',
        `${bird.questions} item 7 (question 7) diagnostic invalid-data`,
        `${bird.questions} item 7 (question 7) zero-shot invalid-data`,
      ].sort(),
    );
    const errorOf = (ts: typeof birdResults.trajectories, id: string) =>
      (ts.find((t) => t.taskId === id)?.outcome as { error?: string } | undefined)?.error;
    expect(errorOf(birdResults.trajectories, 'question 6 (db_id "gone")')).toContain(
      join(bird.databases, 'gone', 'gone.sqlite'),
    );
    expect(errorOf(birdResults.trajectories, `${bird.questions} item 7 (question 7)`)).toMatch(
      /field "SQL" must be a non-empty string$/,
    );
    expect(readFileSync(join(birdDirs.WITNESS_OUT, 'results.json'), 'utf8')).toContain(
      'How many products are out of stock?',
    );

    expect(nlrxRun.status, nlrxRun.stderr.slice(-2000)).toBe(0);
    const nlrxResults = await readResultsFile(join(nlrxDirs.WITNESS_OUT, 'results.json'));
    const emptyLine = `${join(turk, 'src-test.txt')}:4`;
    const badGold = `${join(turk, 'targ-test.txt')}:3`;
    expect(episodes(nlrxResults.trajectories)).toEqual(
      [
        ...['test-1', 'test-2'].flatMap((id) => [`${id} diagnostic ran`, `${id} zero-shot ran`]),
        `${badGold} diagnostic invalid-data`,
        `${badGold} zero-shot invalid-data`,
        `${emptyLine} diagnostic invalid-data`,
        `${emptyLine} zero-shot invalid-data`,
        'test-5 diagnostic invalid-data',
        'test-5 zero-shot invalid-data',
      ].sort(),
    );
    expect(errorOf(nlrxResults.trajectories, badGold)).toMatch(/targ-test\.txt:3: not a brics regex: /);
    expect(errorOf(nlrxResults.trajectories, emptyLine)).toBe(`${emptyLine}: empty description`);
    const emptyLanguage =
      'task test-5: the gold regex "([0-9])&([A-Z])" denotes the empty language (under dk.brics automaton semantics), so no task can be posed';
    expect(errorOf(nlrxResults.trajectories, 'test-5')).toBe(emptyLanguage);
    // Out of the rates and n, and listed in the terminal, summary.md and report.json.
    expect(nlrxResults.summary.map((r) => [r.strategy, r.n, r.invalidData, r.harnessErrors])).toEqual([
      ['zero-shot', 2, 3, 0],
      ['diagnostic', 2, 3, 0],
    ]);
    expect(nlrxRun.stdout).toContain('Invalid data: 3 items the dataset makes unposable (6 episodes');
    expect(nlrxRun.stdout).toContain(`  nl-rx · test-5: ${emptyLanguage.slice('task test-5: '.length)} (2 episodes)`);
    expect(readFileSync(join(nlrxDirs.WITNESS_OUT, 'summary.md'), 'utf8')).toContain(
      '- nl-rx · test-5: the gold regex "(\\[0-9\\])&amp;(\\[A-Z\\])" denotes the empty language',
    );
    const report = JSON.parse(readFileSync(join(nlrxDirs.WITNESS_OUT, 'report.json'), 'utf8')) as {
      invalidData: { taskId: string; episodes: number }[];
    };
    expect(report.invalidData.map((e) => [e.taskId, e.episodes])).toEqual([
      [emptyLine, 2],
      [badGold, 2],
      ['test-5', 2],
    ]);
    // Strict data: the same items fail their tests, and the run.
    expect(strictRun.status, strictRun.stderr.slice(-2000)).toBe(1);
    expect(strictRun.stdout + strictRun.stderr).toContain(`invalid data (strict data): ${emptyLanguage}`);
    const strict = await readResultsFile(join(strictDirs.WITNESS_OUT, 'results.json'));
    expect(episodes(strict.trajectories)).toEqual(episodes(nlrxResults.trajectories));
  }, 240_000);
});

describe('a hostile BIRD folder', () => {
  it('through witness data check and witness bench: each item that points outside is named, the rest runs, nothing outside is opened, no escape sequence reaches the terminal', async () => {
    const bird = writeHostileBirdFolder(folder('witness-hostile-data-'));
    const server = await startTestModelServer(() => ({ content: '```sql\nSELECT 1\n```' }));
    const dir = folder('witness-hostile-data-run-');
    try {
      const [check, bench] = await Promise.all([
        witness(['data', 'check', '--suite', 'bird', '--data', bird.dir]),
        witness(['bench', 'suites/bird.eval.ts', '-t', ' · zero-shot$'], {
          WITNESS_BIRD_DATA: bird.dir,
          ...{ WITNESS_MODEL: 'scripted', OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' },
          ...{ WITNESS_CACHE: 'off', WITNESS_MAX_RETRIES: '0' },
          WITNESS_OUT: join(dir, 'out'),
          WITNESS_STORE: join(dir, 'store'),
          WITNESS_RUN_ID: 'hostile-data',
          WITNESS_VES_ITERATIONS: '0',
        }),
      ]);
      expect(check.status, check.stderr).toBe(1);
      for (const { dbId } of bird.escapes)
        expect(check.stdout).toContain(`dev_databases db_id ${JSON.stringify(dbId)} (1 question): `);

      // Items that point outside are invalid data: listed, out of the rates, and no failure of the run.
      expect(bench.status, bench.stderr.slice(-3000)).toBe(0);
      const results = await readResultsFile(join(dir, 'out', 'results.json'));
      const outcome = (questionId: number) =>
        results.trajectories.find(
          (t) => t.taskId === String(questionId) || t.taskId.startsWith(`question ${questionId} `),
        )?.outcome as { status: string; error?: string } | undefined;
      for (const { questionId, dbId } of bird.escapes) {
        expect(outcome(questionId)?.status, dbId).toBe('invalid-data');
        expect(outcome(questionId)?.error, dbId).toMatch(
          /path separator|leads outside the folder "dev_databases" through a symbolic link/,
        );
      }
      for (const id of [0, 1, 2, 3, 4, 5]) expect(outcome(id)?.status).toMatch(/^(solved|unsolved)$/);
      expect(server.requests.length).toBeGreaterThan(0);
      expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain(OUTSIDE_TABLE);
      // A db_id carrying escape sequences and a bidi override: named, but nothing of it acts on the terminal.
      expect(outcome(bird.escapeSequences.questionId)?.status).toBe('invalid-data');
      expect(check.stdout).toContain(`(1 question): database not found: ${join(bird.databases, 'shop')}`);
      for (const printed of [check.stdout, check.stderr, bench.stdout, bench.stderr])
        expect(printed).not.toMatch(TERMINAL_ACTIVE);
    } finally {
      await server.close();
    }
  }, 240_000);
});
