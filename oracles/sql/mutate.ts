/**
 * SQL mutation operators for the sim model: small, typical mistakes made on the token stream of a
 * query — drop or add DISTINCT, swap MIN/MAX, flip ASC/DESC, change a comparison, drop a WHERE
 * conjunct, join on the wrong column, COUNT(*) vs COUNT(DISTINCT …), change the LIMIT. Every
 * operator lists all its sites; the caller keeps the mutants that SQLite can prepare.
 */
import type { Rng } from '../../core/random.ts';
import { isTrivia, tokenize, type Token } from './sql-text.mjs';
import { findTable, unquoteIdentifier, type SchemaInfo } from './schema.ts';

export type SqlMutationName =
  | 'drop-distinct'
  | 'add-distinct'
  | 'swap-min-max'
  | 'flip-order'
  | 'change-comparison'
  | 'drop-conjunct'
  | 'wrong-join-column'
  | 'count-distinct'
  | 'change-limit';

export interface SqlMutant {
  operator: SqlMutationName;
  sql: string;
}

/** The query as tokens, with the positions of the significant ones and their paren depth. */
interface Parsed {
  tokens: Token[];
  /** Indices into `tokens` of non-trivia tokens. */
  sig: number[];
  depth: number[];
  upper: string[];
}

function parse(sql: string): Parsed {
  const tokens = tokenize(sql);
  const sig: number[] = [];
  const depth: number[] = [];
  const upper: string[] = [];
  let d = 0;
  tokens.forEach((t, i) => {
    if (isTrivia(t)) return;
    if (t.text === ')') d--;
    sig.push(i);
    depth.push(d);
    upper.push(t.type === 'word' ? t.text.toUpperCase() : t.text);
    if (t.text === '(') d++;
  });
  return { tokens, sig, depth, upper };
}

/** Rebuilds the text with tokens `from..to` (inclusive, token indices) replaced by `text`; removal tidies the spaces. */
function splice(p: Parsed, from: number, to: number, text: string): string {
  const before = p.tokens
    .slice(0, from)
    .map((t) => t.text)
    .join('');
  const after = p.tokens
    .slice(to + 1)
    .map((t) => t.text)
    .join('');
  if (text !== '') return before + text + after;
  const b = before.trimEnd();
  const a = after.trimStart();
  const glue = b === '' || a === '' || b.endsWith('(') || /^[),;]/.test(a) ? '' : ' ';
  return b + glue + a;
}

/** Replaces significant token k. */
const replaceSig = (p: Parsed, k: number, text: string) => splice(p, p.sig[k] as number, p.sig[k] as number, text);
/** Removes significant tokens a..b (inclusive) and the space between them. */
const removeSig = (p: Parsed, a: number, b: number) => splice(p, p.sig[a] as number, p.sig[b] as number, '');

const CLAUSE_END = new Set(['GROUP', 'ORDER', 'LIMIT', 'HAVING', 'UNION', 'EXCEPT', 'INTERSECT', 'WINDOW', ';']);
const NOT_ALIAS = new Set([
  'ON',
  'USING',
  'JOIN',
  'INNER',
  'LEFT',
  'RIGHT',
  'FULL',
  'CROSS',
  'NATURAL',
  'OUTER',
  'WHERE',
  'GROUP',
  'ORDER',
  'LIMIT',
  'HAVING',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'WINDOW',
  'AS',
]);

/** Index of the last significant token of the clause starting after `start` at the same depth. */
function clauseEnd(p: Parsed, start: number, stops: Set<string>): number {
  const d = p.depth[start] as number;
  let k = start + 1;
  while (
    k < p.sig.length &&
    (p.depth[k] as number) >= d &&
    !((p.depth[k] as number) === d && stops.has(p.upper[k] as string))
  )
    k++;
  return k - 1;
}

const isLiteral = (p: Parsed, k: number) => {
  const t = p.tokens[p.sig[k] as number];
  return (
    t !== undefined &&
    (t.type === 'number' ||
      t.type === 'string' ||
      (t.type === 'word' && ['NULL', 'TRUE', 'FALSE'].includes(p.upper[k] as string)))
  );
};

/** alias (or table name), lower-cased → table name, from FROM / JOIN clauses. */
function aliases(p: Parsed, schema: SchemaInfo): Map<string, string> {
  const map = new Map<string, string>();
  p.upper.forEach((u, k) => {
    if (u !== 'FROM' && u !== 'JOIN') return;
    const name = p.tokens[p.sig[k + 1] as number];
    if (!name || (name.type !== 'word' && name.type !== 'quoted')) return;
    const table = findTable(schema, unquoteIdentifier(name.text));
    if (!table) return;
    map.set(table.name.toLowerCase(), table.name);
    let j = k + 2;
    if (p.upper[j] === 'AS') j++;
    const alias = p.tokens[p.sig[j] as number];
    if (alias && (alias.type === 'word' || alias.type === 'quoted') && !NOT_ALIAS.has(p.upper[j] as string))
      map.set(unquoteIdentifier(alias.text).toLowerCase(), table.name);
  });
  return map;
}

type Operator = (p: Parsed, schema: SchemaInfo) => string[];

const OPERATORS: Record<SqlMutationName, Operator> = {
  'drop-distinct': (p) => p.upper.flatMap((u, k) => (u === 'DISTINCT' ? [removeSig(p, k, k)] : [])),

  'add-distinct': (p) =>
    p.upper.flatMap((u, k) =>
      u === 'SELECT' && p.upper[k + 1] !== 'DISTINCT'
        ? [replaceSig(p, k, `${p.tokens[p.sig[k] as number]?.text} DISTINCT`)]
        : [],
    ),

  'swap-min-max': (p) =>
    p.upper.flatMap((u, k) =>
      (u === 'MIN' || u === 'MAX') && p.upper[k + 1] === '(' ? [replaceSig(p, k, u === 'MIN' ? 'MAX' : 'MIN')] : [],
    ),

  'flip-order': (p) => {
    const out: string[] = [];
    p.upper.forEach((u, k) => {
      if (u === 'ASC' || u === 'DESC') out.push(replaceSig(p, k, u === 'ASC' ? 'DESC' : 'ASC'));
      if (u !== 'BY' || p.upper[k - 1] !== 'ORDER') return;
      // Bare sort keys (no direction) get DESC.
      const end = clauseEnd(p, k, new Set(['LIMIT', 'UNION', 'EXCEPT', 'INTERSECT', ';']));
      let itemEnd = k;
      for (let j = k + 1; j <= end + 1; j++) {
        const atSplit = j > end || (p.depth[j] === p.depth[k] && p.upper[j] === ',');
        if (!atSplit) continue;
        const last = p.upper[j - 1] as string;
        if (j - 1 > itemEnd && !['ASC', 'DESC', 'FIRST', 'LAST'].includes(last)) {
          const idx = p.sig[j - 1] as number;
          out.push(splice(p, idx, idx, `${p.tokens[idx]?.text} DESC`));
        }
        itemEnd = j;
      }
    });
    return out;
  },

  'change-comparison': (p) => {
    const variants: Record<string, string[]> = {
      '<': ['<=', '>'],
      '<=': ['<', '>='],
      '>': ['>=', '<'],
      '>=': ['>', '<='],
      '=': ['!='],
      '==': ['!='],
      '!=': ['='],
      '<>': ['='],
    };
    return p.upper.flatMap((u, k) => {
      const options = variants[u];
      if (!options || p.tokens[p.sig[k] as number]?.type !== 'op') return [];
      // Equality between two columns is a join condition: negating it builds a near cross product.
      if ((u === '=' || u === '==') && !isLiteral(p, k + 1) && !isLiteral(p, k - 1)) return [];
      return options.map((o) => replaceSig(p, k, o));
    });
  },

  'drop-conjunct': (p) => {
    const out: string[] = [];
    p.upper.forEach((u, k) => {
      if (u !== 'WHERE') return;
      const end = clauseEnd(p, k, CLAUSE_END);
      const d = p.depth[k];
      const ands: number[] = [];
      let between = false;
      for (let j = k + 1; j <= end; j++) {
        if (p.depth[j] !== d) continue;
        if (p.upper[j] === 'BETWEEN') between = true;
        else if (p.upper[j] === 'AND') {
          if (between) between = false;
          else ands.push(j);
        } else if (p.upper[j] === 'OR') return; // dropping a conjunct of a top-level OR is not this operator
      }
      const bounds = [k, ...ands, end + 1];
      for (let i = 0; i + 1 < bounds.length && ands.length > 0; i++) {
        const from = i === 0 ? k + 1 : (bounds[i] as number);
        const to = i === 0 ? (bounds[1] as number) : (bounds[i + 1] as number) - 1;
        out.push(removeSig(p, from, to));
      }
    });
    return out;
  },

  'wrong-join-column': (p, schema) => {
    const tables = aliases(p, schema);
    const out: string[] = [];
    p.upper.forEach((u, k) => {
      if (u !== 'ON') return;
      const end = clauseEnd(p, k, new Set([...CLAUSE_END, 'JOIN', 'INNER', 'LEFT', 'CROSS', 'WHERE']));
      for (let j = k + 1; j + 2 <= end; j++) {
        if (p.upper[j + 1] !== '.') continue;
        const qualifier = unquoteIdentifier(p.tokens[p.sig[j] as number]?.text ?? '').toLowerCase();
        const table = findTable(schema, tables.get(qualifier) ?? '');
        const column = unquoteIdentifier(p.tokens[p.sig[j + 2] as number]?.text ?? '');
        if (!table) continue;
        const keys = new Set(table.foreignKeys.flatMap((f) => f.from));
        for (const other of table.columns) {
          if (other.name.toLowerCase() === column.toLowerCase()) continue;
          if (other.pk > 0 || keys.has(other.name) || /(^|_)id$/i.test(other.name))
            out.push(replaceSig(p, j + 2, other.name));
        }
      }
    });
    return out;
  },

  'count-distinct': (p, schema) => {
    const tables = aliases(p, schema);
    const first = [...tables.entries()][0];
    return p.upper.flatMap((u, k) => {
      if (u !== 'COUNT' || p.upper[k + 1] !== '(') return [];
      if (p.upper[k + 2] === '*' && p.upper[k + 3] === ')') {
        const table = first ? findTable(schema, first[1]) : undefined;
        const column = table?.columns.find((c) => c.pk === 0);
        if (!table || !column || !first) return [];
        const qualifier = first[0] === table.name.toLowerCase() ? '' : `${first[0]}.`;
        return [splice(p, p.sig[k + 2] as number, p.sig[k + 2] as number, `DISTINCT ${qualifier}${column.name}`)];
      }
      if (p.upper[k + 2] === 'DISTINCT')
        return [splice(p, p.sig[k + 2] as number, p.sig[clauseEnd(p, k + 1, new Set([')']))] as number, '*')];
      return [replaceSig(p, k + 1, '(DISTINCT ')];
    });
  },

  'change-limit': (p) =>
    p.upper.flatMap((u, k) => {
      if (u !== 'LIMIT' || p.tokens[p.sig[k + 1] as number]?.type !== 'number') return [];
      const n = Number(p.tokens[p.sig[k + 1] as number]?.text);
      if (!Number.isInteger(n)) return [];
      const moved = [replaceSig(p, k + 1, String(n + 1)), ...(n > 1 ? [replaceSig(p, k + 1, String(n - 1))] : [])];
      const simple = p.upper[k + 2] === undefined || p.upper[k + 2] === ';';
      return simple ? [...moved, removeSig(p, k, k + 1)] : moved;
    }),
};

export const SQL_MUTATIONS = Object.keys(OPERATORS) as SqlMutationName[];

/** Every single-site mutant of a query, by operator (duplicates and no-ops removed). */
export function sqlMutants(sql: string, schema: SchemaInfo): SqlMutant[] {
  const p = parse(sql);
  const seen = new Set<string>([sql]);
  const out: SqlMutant[] = [];
  for (const operator of SQL_MUTATIONS) {
    for (const mutated of OPERATORS[operator](p, schema)) {
      if (seen.has(mutated)) continue;
      seen.add(mutated);
      out.push({ operator, sql: mutated });
    }
  }
  return out;
}

/** One random mutant that `accept` keeps (e.g. SQLite can prepare it), or null. */
export function mutateSql(
  sql: string,
  schema: SchemaInfo,
  rng: Rng,
  accept: (mutant: string) => boolean,
): SqlMutant | null {
  for (const mutant of rng.shuffle(sqlMutants(sql, schema))) {
    if (accept(mutant.sql)) return mutant;
  }
  return null;
}
