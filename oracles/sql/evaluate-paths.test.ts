import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateBird, type QuestionResult } from './evaluate.ts';
import { BIRD_FIXTURES, birdDatabasePath, readBirdQuestions, resolveBirdLayout } from './loader.ts';
import { sqlMutants } from './mutate.ts';
import { SqlPool } from './pool.ts';
import { resultsEqual } from './result-equality.mjs';
import { readSchema } from './schema.ts';
import { tokenize } from './sql-text.mjs';
import { temporaryFolders } from '../../testing/sql.ts';

const folders = temporaryFolders();
const pool = new SqlPool({ size: 2 });
afterAll(async () => {
  await pool.dispose();
  folders.removeAll();
});

const layout = resolveBirdLayout(BIRD_FIXTURES);
const questions = readBirdQuestions(layout.questions).questions;
// Every mutant SQLite can prepare, per question (the candidates a prediction is drawn from).
const mutants = questions.map((q) => {
  const db = new Database(birdDatabasePath(layout.databases, q.db_id), { readonly: true });
  try {
    return sqlMutants(q.SQL, readSchema(db)).map((m) => m.sql);
  } finally {
    db.close();
  }
});

/** A prediction for question `i`: the gold, the gold re-typed, a mutant, or a broken query. */
const prediction = (i: number) => {
  const gold = questions[i]?.SQL as string;
  const retyped = fc.boolean().map((upper) =>
    tokenize(gold)
      .map((t) =>
        t.type === 'word'
          ? upper
            ? t.text.toUpperCase()
            : t.text.toLowerCase()
          : t.type === 'space'
            ? '\n  '
            : t.text,
      )
      .join('')
      .concat(';'),
  );
  const options = [fc.constant(gold), retyped, fc.constant(`${gold} WHERE`), fc.constant('SELECT * FROM nowhere')];
  const candidates = mutants[i] ?? [];
  return fc.oneof(...options, ...(candidates.length > 0 ? [fc.constantFrom(...candidates)] : []));
};

const verdicts = (results: QuestionResult[]) =>
  results.map((r) => ({ index: r.index, res: r.res, status: r.status, rows: r.rows }));

describe('the fast paths of eval bird', () => {
  it('give every question the verdict of the plain path (predicted then gold, both run), first run and gold-cache re-run alike, and the verdict of the rows compared in this process', async () => {
    const dir = folders.make('witness-eval-paths-');
    symlinkSync(layout.databases, join(dir, 'dev_databases'));
    writeFileSync(join(dir, 'dev.json'), JSON.stringify(questions.map(({ index: _index, ...q }) => q)));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.tuple(...questions.map((_, i) => prediction(i))), async (sqls) => {
        const file = join(dir, `pred-${run}.json`);
        const goldCache = join(dir, `gold-${run++}.sqlite`);
        writeFileSync(
          file,
          JSON.stringify(
            Object.fromEntries(sqls.map((sql, i) => [String(i), `${sql}\t----- bird -----\t${questions[i]?.db_id}`])),
          ),
        );
        const common = { data: dir, predictions: file, pool, timeoutMs: 10_000 };
        const plain = await evaluateBird({ ...common, shortcut: false });
        const fast = await evaluateBird(common);
        const cold = await evaluateBird({ ...common, goldCache });
        const warm = await evaluateBird({ ...common, goldCache });
        // Every gold ran, but those of predictions that failed (BIRD does not run them).
        const goldRan = cold.questions.filter((q) => q.status === 'correct' || q.status === 'wrong').length;
        expect(warm.goldCache?.reused).toBe(goldRan);
        expect(verdicts(fast.questions)).toEqual(verdicts(plain.questions));
        expect(verdicts(cold.questions)).toEqual(verdicts(plain.questions));
        expect(verdicts(warm.questions)).toEqual(verdicts(plain.questions));
        expect(fast.accuracy).toEqual(plain.accuracy);
        // The pairs are compared in the SQLite process that read them: the rows compared here agree.
        for (const q of plain.questions.filter((r) => r.status === 'correct' || r.status === 'wrong')) {
          const path = birdDatabasePath(layout.databases, q.db_id as string);
          const [p, g] = [
            await pool.run({ path }, sqls[q.index] as string, 10_000),
            await pool.run({ path }, questions[q.index]?.SQL as string, 10_000),
          ];
          if (!p.ok || !g.ok) throw new Error(`question ${q.index}: a query that ran in the pair failed alone`);
          expect(q.res, `question ${q.index}: ${sqls[q.index]}`).toBe(resultsEqual(p.rows, g.rows, 'set') ? 1 : 0);
        }
      }),
      { numRuns: 8 },
    );
  }, 60_000);
});
