/**
 * The SQL Simulator (what the privileged sim model is built from): the gold's checked mutants first,
 * then schema-aware mutations SQLite can prepare; the reply as a fenced block; and whether a
 * candidate agrees with a witness on the witness's database.
 */
import type { Simulator } from '../../core/oracle.ts';
import { mutateSql } from './mutate.ts';
import type { SqlPrepared, SqlRuntime } from './prepared.ts';
import { agreesWith } from './witnesses.ts';

/** The SQL Simulator over the oracle's runtime. */
export function sqlSimulator(runtime: SqlRuntime): Simulator<SqlPrepared> {
  return {
    mutate(prepared, program, rng) {
      if (program === prepared.task.gold && prepared.goldMutants.length > 0) return rng.pick(prepared.goldMutants);
      return mutateSql(program, prepared.database.schema, rng, (sql) => prepared.database.canPrepare(sql))?.sql ?? null;
    },
    answer: (_prepared, program) => '```sql\n' + program + '\n```',
    async agrees(prepared, candidate, witness) {
      const target = runtime.findCase(prepared, witness.caseId);
      if (!target) return false;
      const r = await runtime.execute(target.db, target.key, candidate.source);
      return r.ok && agreesWith(witness, r, runtime.mode);
    },
  };
}
