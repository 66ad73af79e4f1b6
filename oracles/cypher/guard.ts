/**
 * The read-only guard: before a candidate runs, `EXPLAIN` must report query type `r` (read only),
 * and its plan must not load files or URLs (LOAD CSV), run SHOW / TERMINATE commands (other
 * transactions, settings — and the gold query running beside it), or call procedures outside a
 * small list of schema-introspection ones. Anything else gets an `unsafe` verdict; the query is
 * never run. The read-access transaction the query then runs in is a second line of defence.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import type { VerdictError } from '../../core/types.ts';
import { classifyError } from './execute.ts';

export const ALLOWED_PROCEDURES: readonly string[] = [
  'db.labels',
  'db.relationshipTypes',
  'db.propertyKeys',
  'db.schema.visualization',
  'db.schema.nodeTypeProperties',
  'db.schema.relTypeProperties',
];

export type GuardResult = { ok: true; ms: number } | { ok: false; error: VerdictError; ms: number };

interface PlanNode {
  operatorType: string;
  arguments?: Record<string, unknown>;
  children?: PlanNode[];
}

function operators(plan: PlanNode | undefined | false): PlanNode[] {
  if (!plan) return [];
  return [plan, ...(plan.children ?? []).flatMap((c) => operators(c))];
}

const QUERY_TYPES: Record<string, string> = { rw: 'reads and writes', w: 'writes', s: 'changes the schema or administers the database' };

/** Why a plan is unsafe, or null when it is a plain read. Pure: the policy over EXPLAIN's answer. */
export function unsafeReason(queryType: string, plan: PlanNode | undefined | false): string | null {
  if (queryType !== 'r') return `the query ${QUERY_TYPES[queryType] ?? `has query type ${JSON.stringify(queryType)}`} (EXPLAIN query type "${queryType}"); only read-only queries are run`;
  for (const op of operators(plan)) {
    const name = op.operatorType.replace(/@.*$/, '');
    if (name === 'LoadCSV') return 'LOAD CSV reads files or URLs; only queries over the graph are run';
    if (/^(Show|Terminate|AdministrationCommand)/.test(name)) return `the query runs a ${name} command; only queries over the graph are run`;
    if (name === 'ProcedureCall') {
      const details = String(op.arguments?.Details ?? op.arguments?.Signature ?? '');
      const procedure = /^([\w.]+)\s*\(/.exec(details)?.[1] ?? details;
      if (!ALLOWED_PROCEDURES.includes(procedure)) return `the query calls the procedure ${procedure || '(unknown)'}; only ${ALLOWED_PROCEDURES.join(', ')} may be called`;
    }
  }
  return null;
}

/** EXPLAINs the query (in a read-access session) and applies the policy. Syntax errors come back as such. */
export async function checkReadOnly(driver: Driver, query: string, options: { timeoutMs: number; database?: string }): Promise<GuardResult> {
  const started = performance.now();
  const trimmed = query.trim();
  if (/^(EXPLAIN|PROFILE)\b/i.test(trimmed)) {
    return { ok: false, error: { kind: 'syntax', message: 'give the query itself, without EXPLAIN or PROFILE' }, ms: performance.now() - started };
  }
  const session = driver.session({ defaultAccessMode: neo4j.session.READ, database: options.database });
  try {
    const result = await session.run(`EXPLAIN ${trimmed}`, {}, { timeout: options.timeoutMs });
    const reason = unsafeReason(result.summary.queryType, result.summary.plan as PlanNode | false);
    return reason ? { ok: false, error: { kind: 'unsafe', message: reason }, ms: performance.now() - started } : { ok: true, ms: performance.now() - started };
  } catch (error) {
    return { ok: false, error: classifyError(error), ms: performance.now() - started };
  } finally {
    await session.close();
  }
}
