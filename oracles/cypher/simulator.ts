/**
 * The Cypher Simulator (what the privileged sim model is built from): mutations of a query, the
 * reply as a fenced block, and whether a candidate's result holds (or lacks) a witness's row as the
 * gold's does, on the loaded graph or the witness's variant.
 */
import type { Simulator } from '../../core/oracle.ts';
import type { Candidate, Json, JsonObject, Witness } from '../../core/types.ts';
import { mutateCypher } from './mutate.ts';
import { variantFromJson } from './perturb.ts';
import type { CypherPrepared, CypherRuntime } from './prepared.ts';
import { cellKey, type Cell, type ResultTable } from './values.ts';
import { judge, type Judgement } from './verdict.ts';

const SEP = '\u0001';
const jsonRowKey = (row: readonly Json[]) => row.map((v) => cellKey(v as Cell)).join(SEP);
const cellRowKey = (row: readonly Cell[]) => row.map((v) => cellKey(v)).join(SEP);

/** Does the candidate's result contain (or lack) the witness's row as the gold's does, on the witness's graph? */
async function agrees(
  runtime: CypherRuntime,
  prepared: CypherPrepared,
  candidate: Candidate,
  witness: Witness,
): Promise<boolean> {
  const { runner, comparison } = runtime;
  const input = (
    typeof witness.input === 'object' && witness.input !== null && !Array.isArray(witness.input) ? witness.input : {}
  ) as JsonObject;
  if (!(await runner.guard(candidate.source)).ok) return false;
  const variant = variantFromJson(input.variant);
  let gold: ResultTable;
  let mine: ResultTable;
  if (variant) {
    const [g, c] = await runner.runOnVariant(variant, [
      { query: prepared.task.gold, role: 'gold' },
      { query: candidate.source, role: 'candidate' },
    ]);
    // A variant the gold cannot run on says nothing; a candidate that fails there disagrees.
    if (!g?.ok) return true;
    if (!c?.ok) return false;
    gold = g.table;
    mine = c.table;
  } else {
    const c = await runner.run(candidate.source, 'candidate');
    if (!c.ok) return false;
    gold = prepared.goldResult;
    mine = c.table;
  }
  const j: Judgement = judge(gold, mine, { orderMatters: prepared.orderMatters, ...comparison });
  if (j.error) return false;
  if (j.outcome?.equal) return true;
  const diff = j.diff;
  if (!diff?.aligned || witness.kind === 'failing-variant') return false;
  const key = jsonRowKey((input.row as Json[] | undefined) ?? []);
  if (witness.kind === 'missing-row') return !diff.missing.some((r) => cellRowKey(r) === key);
  if (witness.kind === 'extra-row') return !diff.extra.some((r) => cellRowKey(r) === key);
  if (witness.kind === 'misordered-row' && diff.permutation) {
    const row = mine.rows[Number(input.position)];
    return row !== undefined && cellRowKey(diff.permutation.map((j) => row[j] as Cell)) === key;
  }
  return false;
}

/** The Cypher Simulator over the oracle's runtime. */
export function cypherSimulator(runtime: CypherRuntime): Simulator<CypherPrepared> {
  return {
    mutate: (_prepared, program, rng) => mutateCypher(program, rng)?.query ?? null,
    answer: (_prepared, program) => '```cypher\n' + program + '\n```',
    agrees: (prepared, candidate, witness) => agrees(runtime, prepared, candidate, witness),
  };
}
