/**
 * The SQL Simulator (what the privileged sim model is built from): the gold's checked mutants first,
 * then schema-aware mutations SQLite can prepare; mistakes of a named class for the steerable sim;
 * the reply as a fenced block; and whether a candidate agrees with a witness on the witness's database.
 */
import type { Simulator } from '../../core/oracle.ts';
import { mutateSql, sqlMutants } from './mutate.ts';
import type { SqlPrepared, SqlRuntime } from './prepared.ts';
import { misnameColumn, SQL_CLASS_OPERATORS, SQL_STEERING } from './steering.ts';
import { agreesWith } from './witnesses.ts';

/** The SQL Simulator over the oracle's runtime. */
export function sqlSimulator(runtime: SqlRuntime): Simulator<SqlPrepared> {
  return {
    mutate(prepared, program, rng) {
      if (program === prepared.task.gold && prepared.goldMutants.length > 0) return rng.pick(prepared.goldMutants);
      return mutateSql(program, prepared.database.schema, rng, (sql) => prepared.database.canPrepare(sql))?.sql ?? null;
    },
    steering: SQL_STEERING,
    mutateOfClass(prepared, program, cls, rng) {
      const { schema } = prepared.database;
      if (cls === 'unknown-column') {
        const broken = misnameColumn(program, schema, rng);
        return broken !== null && !prepared.database.canPrepare(broken) ? broken : null;
      }
      const only = SQL_CLASS_OPERATORS[cls];
      if (!only) return null;
      const mutants = sqlMutants(program, schema).filter((m) => only.includes(m.operator));
      if (program === prepared.task.gold) {
        // From the gold, only mutants checked to change the result (none when the oracle skipped that check).
        const checked = new Set(prepared.goldMutants);
        const firsts = mutants.filter((m) => checked.has(m.sql));
        return firsts.length > 0 ? rng.pick(firsts).sql : null;
      }
      return rng.shuffle(mutants).find((m) => prepared.database.canPrepare(m.sql))?.sql ?? null;
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
