/**
 * Hardening for SQL: differential testing of candidate and gold on perturbed copies of the task's
 * database (in memory; see probes.ts for what is perturbed). fast-check drives the search and
 * shrinks a disagreement to the smallest change; the witness is that change plus the differing
 * rows. A probe database that told the candidate from the gold becomes a required case when the
 * task is extended with it. Identical programs (same tokens) are exactly equivalent.
 */
import fc from 'fast-check';
import { BoundedCache } from '../../core/bounded-cache.ts';
import type { Hardener } from '../../core/oracle.ts';
import { hash32 } from '../../core/random.ts';
import { diffResults, normalizeSql, resultsEqual, type CompareMode } from './compare.ts';
import type { DatabaseContext } from './database.ts';
import type { SqlCase, SqlPrepared } from './prepared.ts';
import { perturbImage, type Edit } from './perturb.ts';
import type { DbRef, ExecResult } from './pool.ts';
import { editsArbitrary, probeTables, type ProbeTable } from './probes.ts';
import { cacheKey } from './result-cache.ts';
import { witnessesFromDiff } from './witnesses.ts';

/** A probe database that told a candidate from the gold: enough to rebuild it. */
export interface ProbeRecord {
  id: string;
  database: DatabaseContext;
  edits: Edit[];
  gold: SqlCase['gold'];
  change: string[];
}

export type ProbeRegistry = Map<string, ProbeRecord>;

export interface SqlHardenerSetup {
  mode: CompareMode;
  /** Probe databases per round. */
  probeDatabases: number;
  registry: ProbeRegistry;
  /** Runs the candidate, then the gold, on one database. */
  sequence: (db: DbRef, sqls: string[]) => Promise<ExecResult[]>;
}

const MAX_JUDGEMENTS = 20_000;
const MAX_IMAGES = 16;
const MAX_SPACES = 512;

export interface SqlHardener extends Hardener<SqlPrepared> {
  /** The case of a registered probe database (rebuilt from its edits when needed). */
  probeCase(id: string): SqlCase | undefined;
}

export function sqlHardener(setup: SqlHardenerSetup): SqlHardener {
  const { mode, registry } = setup;
  const judgements = new BoundedCache<string, Promise<boolean>>({ maxEntries: MAX_JUDGEMENTS });
  const spaces = new BoundedCache<string, ProbeTable[]>({ maxEntries: MAX_SPACES });
  const images = new BoundedCache<string, Buffer>({ maxEntries: MAX_IMAGES });

  const image = (record: ProbeRecord): Buffer =>
    images.remember(
      record.id,
      () => perturbImage(record.database.image as Buffer, record.database.schema, record.edits).bytes,
    );

  const toCase = (record: ProbeRecord): SqlCase => ({
    id: record.id,
    db: { bytes: image(record) },
    key: record.id,
    gold: record.gold,
    required: true,
    change: record.change,
  });

  const space = (database: DatabaseContext, gold: string, candidate: string): ProbeTable[] =>
    spaces.remember(cacheKey(database.path, gold, candidate), () => probeTables(database, gold, candidate));

  /** Do candidate and gold agree on the database changed by `edits`? Ties to unjudgeable copies count as agreement. */
  async function run(prepared: SqlPrepared, sql: string, edits: Edit[]) {
    const database = prepared.database;
    const { bytes, changes } = perturbImage(database.image as Buffer, database.schema, edits);
    if (changes.length === 0) return { agree: true as const };
    const [candidate, gold] = (await setup.sequence({ bytes }, [sql, prepared.task.gold])) as [ExecResult, ExecResult];
    if (!gold.ok) return { agree: true as const };
    const agree = candidate.ok && resultsEqual(candidate.rows, gold.rows, mode, prepared.goldOrdered);
    return { agree, candidate, gold, changes };
  }

  const judge = (prepared: SqlPrepared, sql: string, edits: Edit[]): Promise<boolean> =>
    judgements.remember(cacheKey(prepared.database.path, prepared.task.gold, sql, JSON.stringify(edits)), () =>
      run(prepared, sql, edits).then((r) => r.agree),
    );

  return {
    async probe(prepared, candidate, { rng, maxProbes }) {
      const sql = candidate.source;
      const database = prepared.database;
      if (!database.image || normalizeSql(sql) === normalizeSql(prepared.task.gold))
        return { probed: 0, disagreements: [] };
      const arbitrary = editsArbitrary(space(database, prepared.task.gold, sql));
      if (!arbitrary) return { probed: 0, disagreements: [] };
      let probed = 0;
      const property = fc.asyncProperty(arbitrary, (edits) => {
        probed++;
        return judge(prepared, sql, edits);
      });
      const numRuns = Math.max(1, Math.min(maxProbes, setup.probeDatabases));
      const outcome = await fc.check(property, { seed: rng.nextUint32() | 0, numRuns, skipAllAfterTimeLimit: 20_000 });
      const counterexample = outcome.failed ? outcome.counterexample?.[0] : undefined;
      if (!counterexample) return { probed, disagreements: [] };
      let edits: Edit[] = counterexample;
      // fast-check shrinks each edit; drop whole edits the disagreement does not need.
      for (let i = edits.length - 1; i >= 0 && edits.length > 1; i--) {
        const fewer = edits.filter((_, j) => j !== i);
        probed++;
        if (!(await judge(prepared, sql, fewer))) edits = fewer;
      }
      const found = await run(prepared, sql, edits);
      if (found.agree) return { probed, disagreements: [] };
      const id = `probe-${hash32(`${database.path}\u0000${JSON.stringify(edits)}`)
        .toString(16)
        .padStart(8, '0')}`;
      const gold = { columns: found.gold.columns, rows: found.gold.rows };
      registry.set(id, { id, database, edits, gold, change: found.changes });
      const actual = found.candidate.ok ? found.candidate : { columns: gold.columns, rows: [] };
      return {
        probed,
        disagreements: witnessesFromDiff(diffResults(actual, gold, mode, prepared.goldOrdered), id, found.changes),
      };
    },
    extend(prepared, witnesses) {
      const known = new Set(prepared.cases.map((c) => c.id));
      const added: SqlCase[] = [];
      for (const w of witnesses) {
        const record = w.caseId ? registry.get(w.caseId) : undefined;
        if (!record || known.has(record.id)) continue;
        known.add(record.id);
        added.push(toCase(record));
      }
      const cases = [...prepared.cases, ...added];
      return { ...prepared, cases, caseIds: cases.map((c) => c.id) };
    },
    async exact(prepared, candidate) {
      return normalizeSql(candidate.source) === normalizeSql(prepared.task.gold) ? true : null;
    },
    probeCase(id) {
      const record = registry.get(id);
      return record ? toCase(record) : undefined;
    },
  };
}
