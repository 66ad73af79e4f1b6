/**
 * The SQL steering catalog (what the steerable sim's mistakes respond to): five classes of
 * result-changing mistakes drawn from the mutation operators, one class that fails to run (a
 * misspelt column), the rule that addresses each and two misleading rules. Keyword groups are
 * phrases a schema or a question rarely holds, because the whole prompt (schema included) is
 * searched. See docs/meta-harness.md#steerable-sim.
 */
import type { Rng } from '../../core/random.ts';
import type { SteeringCatalog } from '../../core/steering.ts';
import type { SqlMutationName } from './mutate.ts';
import { unquoteIdentifier, type SchemaInfo } from './schema.ts';
import { isTrivia, tokenize } from './sql-text.mjs';

export const SQL_STEERING: SteeringCatalog = {
  classes: [
    {
      name: 'aggregate',
      summary: 'the wrong aggregate (MIN for MAX, COUNT(*) for COUNT(DISTINCT …))',
      rule: 'Use the aggregate function the question asks for: the highest value is MAX, the lowest MIN, and a count of distinct values COUNT(DISTINCT …).',
      keywords: [['aggregate function'], ['max', 'min']],
    },
    {
      name: 'distinct',
      summary: 'DISTINCT missing or added',
      rule: 'Use DISTINCT exactly when the question asks for different or unique values, and only then.',
      keywords: [['distinct'], ['unique', 'different'], ['only when', 'exactly when', 'only then']],
    },
    {
      name: 'condition',
      summary: 'a WHERE condition dropped or its comparison changed (> for >=)',
      rule: "Translate every condition of the question, each with the exact comparison: 'more than' is >, 'at least' is >=.",
      keywords: [['condition'], ['exact comparison', 'comparison operator']],
    },
    {
      name: 'join',
      summary: 'a join on the wrong column',
      rule: 'Join tables only on the foreign key columns declared in the schema.',
      keywords: [['join'], ['foreign key'], ['declared']],
    },
    {
      name: 'ordering',
      summary: 'the sort direction flipped or the LIMIT changed',
      rule: "For 'highest', 'top N' or 'first N' sort with ORDER BY in the direction asked and LIMIT to exactly N rows.",
      keywords: [['order by'], ['limit'], ['top n', 'first n', 'highest']],
    },
    {
      name: 'unknown-column',
      summary: 'a misspelt column name: the query does not run',
      rule: 'Use only column names that appear in the schema, spelled exactly as there.',
      keywords: [['column name'], ['schema'], ['spelled']],
      failsToRun: true,
    },
  ],
  harmful: [
    {
      name: 'always-distinct',
      text: 'To be safe, always write SELECT DISTINCT so that no row is repeated.',
      keywords: [['always'], ['select distinct']],
      provokes: 'distinct',
    },
    {
      name: 'skip-conditions',
      text: 'Keep queries short: leave out conditions that look redundant.',
      keywords: [['leave out', 'omit'], ['redundant']],
      provokes: 'condition',
    },
  ],
};

/** Mutation operators (oracles/sql/mutate.ts) behind each result-changing class. */
export const SQL_CLASS_OPERATORS: Readonly<Record<string, readonly SqlMutationName[]>> = {
  aggregate: ['swap-min-max', 'count-distinct'],
  distinct: ['drop-distinct', 'add-distinct'],
  condition: ['change-comparison', 'drop-conjunct'],
  join: ['wrong-join-column'],
  ordering: ['flip-order', 'change-limit'],
};

/** The query with one column reference misspelt (a name no table has), or null when it names no column. */
export function misnameColumn(sql: string, schema: SchemaInfo, rng: Rng): string | null {
  const columns = new Set(schema.tables.flatMap((t) => t.columns.map((c) => c.name.toLowerCase())));
  const tables = new Set(schema.tables.map((t) => t.name.toLowerCase()));
  const tokens = tokenize(sql);
  const sites = tokens.flatMap((t, i) => {
    if (isTrivia(t) || (t.type !== 'word' && t.type !== 'quoted')) return [];
    const name = unquoteIdentifier(t.text).toLowerCase();
    return columns.has(name) && !tables.has(name) ? [i] : [];
  });
  if (sites.length === 0) return null;
  const at = rng.pick(sites);
  const name = unquoteIdentifier(tokens[at]!.text);
  const spelled = [`${name}s`, `${name}_name`, `${name.slice(0, -1)}`].filter(
    (n) => n.length > 0 && !columns.has(n.toLowerCase()) && !tables.has(n.toLowerCase()),
  );
  if (spelled.length === 0) return null;
  const chosen = rng.pick(spelled);
  // Brackets, not double quotes: SQLite may read an unknown double-quoted name as a string literal.
  const replacement = /^[A-Za-z_][A-Za-z0-9_]*$/.test(chosen) ? chosen : `[${chosen.replace(/]/g, '')}]`;
  return tokens.map((t, i) => (i === at ? replacement : t.text)).join('');
}
