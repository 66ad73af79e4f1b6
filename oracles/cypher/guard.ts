/**
 * The read-only guard: before a candidate runs, `EXPLAIN` must report query type `r` (read only),
 * and its plan must not load files or URLs (LOAD CSV), run SHOW / TERMINATE commands (other
 * transactions, settings — and the gold query running beside it), or call procedures outside a
 * small list of schema-introspection ones. Anything else gets an `unsafe` verdict; the query is
 * never run. The read-access transaction the query then runs in is a second line of defence.
 * Candidate texts longer than a cap are refused before planning (`too-complex`): Neo4j's planning
 * time grows steeply with length (a 20 KB chain of additions takes half a minute to plan).
 */
import neo4j, { type Driver } from 'neo4j-driver';
import type { VerdictError } from '../../core/types.ts';
import { classifyError, Neo4jUnreachableError, trimMessage } from './errors.ts';
import { serverAnswers, withDeadline } from './execute.ts';
import { unplannedRefusal } from './guard-policy.ts';
import { failureCause, noRetries, retryDelayMs, sleep } from './retry.ts';

/**
 * An operator's name without its runtime suffix (`Filter@neo4j` → `Filter`): from the first `@`
 * after the last line break, as `/@.*$/` would cut, without its quadratic search.
 */
function withoutRuntimeSuffix(operatorType: string): string {
  let lastBreak = -1;
  for (const c of ['\n', '\r', '\u2028', '\u2029']) lastBreak = Math.max(lastBreak, operatorType.lastIndexOf(c));
  const at = operatorType.indexOf('@', lastBreak + 1);
  return at === -1 ? operatorType : operatorType.slice(0, at);
}

/** Longest candidate query text planned and run by default, in UTF-8 bytes. */
export const DEFAULT_MAX_QUERY_BYTES = 16 * 1024;
/** Extra time the client waits for EXPLAIN beyond its server-side timeout. */
const CLIENT_GRACE_MS = 5_000;

/** The `too-complex` error for a query text over `maxBytes`, or null. Pure. */
export function queryTooLong(query: string, maxBytes: number): VerdictError | null {
  if (query.length <= maxBytes / 3) return null; // at most 3 UTF-8 bytes per UTF-16 unit: surely short enough
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes <= maxBytes) return null;
  return {
    kind: 'too-complex',
    message: `the query is ${bytes.toLocaleString('en-US')} bytes long; queries longer than ${maxBytes.toLocaleString('en-US')} bytes are not run`,
  };
}

const ALLOWED_PROCEDURES: readonly string[] = [
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

const QUERY_TYPES: Record<string, string> = {
  rw: 'reads and writes',
  w: 'writes',
  s: 'changes the schema or administers the database',
};

/** Why a plan is unsafe, or null when it is a plain read. Pure: the policy over EXPLAIN's answer. */
function unsafeReason(queryType: string, plan: PlanNode | undefined | false): string | null {
  if (queryType !== 'r')
    return `the query ${QUERY_TYPES[queryType] ?? `has query type ${JSON.stringify(queryType)}`} (EXPLAIN query type "${queryType}"); only read-only queries are run`;
  for (const op of operators(plan)) {
    const name = trimMessage(withoutRuntimeSuffix(op.operatorType), 100);
    if (name === 'LoadCSV') return 'LOAD CSV reads files or URLs; only queries over the graph are run';
    if (/^(Show|Terminate|AdministrationCommand)/.test(name))
      return `the query runs a ${name} command; only queries over the graph are run`;
    if (name === 'ProcedureCall') {
      const details = String(op.arguments?.Details ?? op.arguments?.Signature ?? '');
      const procedure = trimMessage(/^([\w.]+)\s*\(/.exec(details)?.[1] ?? details, 200);
      if (!ALLOWED_PROCEDURES.includes(procedure))
        return `the query calls the procedure ${procedure || '(unknown)'}; only ${ALLOWED_PROCEDURES.join(', ')} may be called`;
    }
  }
  return null;
}

/** The verdict error of a query whose planning the server stopped twice while it answers others. */
const PLANNING_STOPPED: VerdictError = {
  kind: 'too-complex',
  message:
    "Neo4j stopped planning the query twice (it closed the connection or terminated the transaction), and answers other queries: planning it fills the server's memory",
};

/**
 * EXPLAINs the query (in a read-access session) and applies the policy. Syntax errors come back as
 * such; planning that outlasts the timeout is a `timeout`. Failures that may be a neighbour's doing
 * are tried again as queries are (retry.ts); a server that no longer answers throws
 * Neo4jUnreachableError.
 */
export async function checkReadOnly(
  driver: Driver,
  query: string,
  options: { timeoutMs: number; database?: string },
): Promise<GuardResult> {
  const started = performance.now();
  const retries = noRetries();
  for (;;) {
    const outcome = await explainOnce(driver, query, options);
    if (!('thrown' in outcome)) return outcome;
    const cause = failureCause(outcome.thrown);
    if (cause === 'stopped' && !(await serverAnswers(driver)))
      throw new Neo4jUnreachableError('the read-only check', outcome.thrown);
    const delay = retryDelayMs(cause, retries);
    if (delay !== null && cause !== 'own') {
      retries[cause]++;
      await sleep(delay);
      continue;
    }
    return {
      ok: false,
      error: cause === 'stopped' ? PLANNING_STOPPED : classifyError(outcome.thrown),
      ms: performance.now() - started,
    };
  }
}

async function explainOnce(
  driver: Driver,
  query: string,
  options: { timeoutMs: number; database?: string },
): Promise<GuardResult | { thrown: unknown }> {
  const started = performance.now();
  const trimmed = query.trim();
  const refused = unplannedRefusal(trimmed);
  if (refused) return { ok: false, error: refused, ms: performance.now() - started };
  const session = driver.session({ defaultAccessMode: neo4j.session.READ, database: options.database });
  const work = (async (): Promise<GuardResult | { thrown: unknown }> => {
    try {
      const result = await session.run(`EXPLAIN ${trimmed}`, {}, { timeout: options.timeoutMs });
      const reason = unsafeReason(result.summary.queryType, result.summary.plan as PlanNode | false);
      return reason
        ? { ok: false, error: { kind: 'unsafe', message: reason }, ms: performance.now() - started }
        : { ok: true, ms: performance.now() - started };
    } catch (error) {
      if (failureCause(error) !== 'own') return { thrown: error };
      return { ok: false, error: classifyError(error), ms: performance.now() - started };
    }
  })();
  const outcome = await withDeadline(
    work,
    options.timeoutMs + CLIENT_GRACE_MS,
    () => void work.catch(() => {}).finally(() => session.close().catch(() => {})),
  );
  if (outcome === 'deadline') {
    return {
      ok: false,
      error: {
        kind: 'timeout',
        message: `Neo4j did not finish planning the query within ${Math.round(options.timeoutMs / 1000)} s`,
      },
      ms: performance.now() - started,
    };
  }
  await session.close().catch(() => {});
  return outcome;
}
