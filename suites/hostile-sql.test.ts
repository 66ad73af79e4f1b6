/**
 * The bird suite end to end with a model that answers with what no engine can run: the real
 * suites/bird.eval.ts in a vitest child process, the `openai` client over real HTTP to the scripted
 * model server, the real SQLite pool. A huge SQL text, a result bomb and a too-deep expression are
 * unsolved episodes with a named error kind (counted in the rates, never harness errors), the
 * episode beside them solves as usual, and the databases are unchanged.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestModelServer } from '../testing/model-server.ts';
import { temporaryFolders } from '../testing/sql.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';

const folders = temporaryFolders();
afterAll(() => folders.removeAll());

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'fixtures/bird');
const checksums = () =>
  readFileSync(join(fixtures, 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/)[1] as string)
    .map(
      (file) =>
        `${createHash('sha256')
          .update(readFileSync(join(fixtures, 'dev_databases', file)))
          .digest('hex')}  ${file}`,
    )
    .join('\n');

/** What the scripted model answers, by a phrase of the question it is asked. */
const ANSWERS: { question: string; taskId: string; sql: string; kind: string | null }[] = [
  {
    question: 'customers have no email address',
    taskId: '0',
    sql: `SELECT COUNT(customer_id) FROM customers WHERE email IS NULL AND customer_id NOT IN (${Array.from({ length: 300_000 }, (_, i) => i + 1_000_000).join(', ')})`,
    kind: 'too-complex',
  },
  {
    question: 'stores that currently have no manager',
    taskId: '1',
    sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000) SELECT zeroblob(1000000) FROM c',
    kind: 'too-large',
  },
  {
    question: 'highest list price',
    taskId: '2',
    sql: `SELECT MAX(list_price) + ${Array(1200).fill('0').join(' + ')} FROM products WHERE discontinued = 0`,
    kind: 'too-complex',
  },
  {
    question: 'orders were placed in 2021',
    taskId: '3',
    sql: "SELECT COUNT(order_id) FROM orders WHERE STRFTIME('%Y', order_date) = '2021'",
    kind: null,
  },
];

describe('the bird suite against a model answering with what no engine can run', () => {
  it('makes huge SQL and result bombs unsolved episodes with a named error kind, leaves the others alone, and the databases as they were', async () => {
    const before = checksums();
    const server = await startTestModelServer((request) => {
      const text = JSON.stringify(request.body.messages ?? '');
      const answer = ANSWERS.find((a) => text.includes(a.question));
      return { content: answer ? '```sql\n' + answer.sql + '\n```' : 'I do not know.' };
    });
    const dir = folders.make('witness-hostile-bird-');
    const env: NodeJS.ProcessEnv = {
      ...withoutSuiteData(),
      WITNESS_MODEL: 'scripted',
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'test-key',
      WITNESS_CACHE: 'off',
      WITNESS_MAX_RETRIES: '0',
      WITNESS_OUT: join(dir, 'out'),
      WITNESS_STORE: join(dir, 'store'),
      WITNESS_RUN_ID: 'hostile-sql',
      WITNESS_VES_ITERATIONS: '0',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    };
    try {
      const args = [
        join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--project',
        'bench',
        'suites/bird.eval.ts',
        '-t',
        '^bird [0-3] · (zero-shot|diagnostic)$',
      ];
      const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('exit', (status) => resolve({ status, stdout, stderr }));
      });
      expect(run.status, run.stdout.slice(-3000) + run.stderr.slice(-3000)).toBe(0);
      const results = await readResultsFile(join(dir, 'out', 'results.json'));
      const ran = results.trajectories.map((t) => `${t.taskId}/${t.strategy}`).sort();
      expect(ran).toEqual([
        '0/diagnostic',
        '0/zero-shot',
        '1/diagnostic',
        '1/zero-shot',
        '2/diagnostic',
        '2/zero-shot',
        '3/diagnostic',
        '3/zero-shot',
      ]);
      for (const answer of ANSWERS) {
        for (const t of results.trajectories.filter((x) => x.taskId === answer.taskId)) {
          const label = `${t.taskId}/${t.strategy}`;
          if (answer.kind === null) {
            expect(t.outcome, label).toMatchObject({ status: 'solved', solvedAtTurn: 1 });
            continue;
          }
          expect(t.outcome.status, label).toBe('unsolved');
          const solve = t.turns.filter((turn) => turn.phase === 'solve');
          expect(solve.length, label).toBe(t.strategy === 'zero-shot' ? 1 : 4);
          for (const turn of solve) expect(turn.verdict.error?.kind, label).toBe(answer.kind);
          if (t.strategy === 'diagnostic') {
            const feedback = solve[0]?.feedback?.text ?? '';
            expect(feedback, label).toMatch(
              answer.kind === 'too-large'
                ? /^Your query was stopped: the result is larger than 128 MiB/
                : /^Your query could not be run: /,
            );
          }
        }
      }
      // Counted in the rates as failures: n = 4 per strategy, Pass@final 1 in 4.
      const row = results.summary.find((r) => r.strategy === 'diagnostic');
      expect(row).toMatchObject({ n: 4 });
      expect(row?.passFinal.value).toBe(0.25);
    } finally {
      await server.close();
    }
    expect(checksums()).toBe(before);
  }, 240_000);
});
