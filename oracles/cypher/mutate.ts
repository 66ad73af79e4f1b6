/**
 * Mutation operators for Cypher (the sim model's plausible mistakes): flip a relationship's
 * direction, drop a WHERE condition, move a comparison's boundary (`<` ↔ `<=`), swap an
 * aggregation (min ↔ max, sum ↔ avg), add or remove DISTINCT, flip the ORDER BY direction, and
 * change or drop a LIMIT. Each works on tokens, so strings and names are never touched; each
 * finds its sites, picks one with the Rng, and returns the new query or null.
 */
import type { Rng } from '../../core/random.ts';
import { isKeyword, tokenize, untokenize, type Token } from './tokens.ts';

export interface CypherMutation {
  name: string;
  /** Token indices where the operator applies. */
  sites(tokens: readonly Token[]): number[];
  apply(tokens: readonly Token[], site: number, rng: Rng): Token[] | null;
}

const CLAUSE_END = [
  'RETURN',
  'WITH',
  'MATCH',
  'OPTIONAL',
  'ORDER',
  'UNWIND',
  'CALL',
  'UNION',
  'LIMIT',
  'SKIP',
  'CREATE',
  'MERGE',
  'SET',
  'DELETE',
  'DETACH',
  'REMOVE',
  'FOREACH',
];
const punct = (text: string): Token => ({ kind: 'punct', text });
const word = (text: string): Token => ({ kind: 'word', text });
const space: Token = { kind: 'space', text: ' ' };

function nextSig(tokens: readonly Token[], i: number, step: 1 | -1): number {
  for (let j = i + step; j >= 0 && j < tokens.length; j += step) {
    const kind = tokens[j]?.kind;
    if (kind !== 'space' && kind !== 'comment') return j;
  }
  return -1;
}

function matching(tokens: readonly Token[], i: number, open: string, close: string, step: 1 | -1): number {
  let depth = 0;
  for (let j = i; j >= 0 && j < tokens.length; j += step) {
    const text = tokens[j]?.kind === 'punct' ? tokens[j]?.text : '';
    if (text === (step === 1 ? open : close)) depth++;
    else if (text === (step === 1 ? close : open) && --depth === 0) return j;
  }
  return -1;
}

/** The far end of a relationship pattern starting (or ending) at an arrow token. */
function arrowPartner(tokens: readonly Token[], i: number): number {
  const t = tokens[i]?.text;
  if (t === '->') {
    const before = nextSig(tokens, i, -1);
    if (tokens[before]?.text === ']') {
      const open = matching(tokens, before, '[', ']', -1);
      const dash = nextSig(tokens, open, -1);
      return tokens[dash]?.text === '-' ? dash : -1;
    }
    return tokens[before]?.text === '-' ? before : -1;
  }
  if (t === '<-') {
    const after = nextSig(tokens, i, 1);
    if (tokens[after]?.text === '[') {
      const close = matching(tokens, after, '[', ']', 1);
      const dash = nextSig(tokens, close, 1);
      return tokens[dash]?.text === '-' ? dash : -1;
    }
    return tokens[after]?.text === '-' ? after : -1;
  }
  return -1;
}

/** The end (exclusive) of the expression starting after token `from`, at depth 0. */
function clauseEnd(tokens: readonly Token[], from: number, stops: readonly string[]): number {
  let depth = 0;
  for (let j = from + 1; j < tokens.length; j++) {
    const t = tokens[j] as Token;
    if (t.kind === 'punct' && ['(', '[', '{'].includes(t.text)) depth++;
    else if (t.kind === 'punct' && [')', ']', '}'].includes(t.text)) {
      if (depth === 0) return j;
      depth--;
    } else if (depth === 0 && (isKeyword(t, ...stops) || (t.kind === 'punct' && stops.includes(t.text)))) return j;
  }
  return tokens.length;
}

const flipDirection: CypherMutation = {
  name: 'relationship-direction',
  sites: (tokens) =>
    tokens.flatMap((t, i) =>
      t.kind === 'punct' && (t.text === '->' || t.text === '<-') && arrowPartner(tokens, i) >= 0 ? [i] : [],
    ),
  apply(tokens, site) {
    const partner = arrowPartner(tokens, site);
    const out = [...tokens];
    out[partner] = punct(tokens[site]?.text === '->' ? '<-' : '->');
    out[site] = punct('-');
    return out;
  },
};

const dropFilter: CypherMutation = {
  name: 'missing-filter',
  sites: (tokens) => tokens.flatMap((t, i) => (isKeyword(t, 'WHERE') ? [i] : [])),
  apply(tokens, site, rng) {
    const end = clauseEnd(tokens, site, CLAUSE_END);
    const ands: number[] = [];
    let depth = 0;
    for (let j = site + 1; j < end; j++) {
      const t = tokens[j] as Token;
      if (t.kind === 'punct' && ['(', '[', '{'].includes(t.text)) depth++;
      else if (t.kind === 'punct' && [')', ']', '}'].includes(t.text)) depth--;
      else if (depth === 0 && isKeyword(t, 'AND')) ands.push(j);
    }
    if (ands.length === 0) return [...tokens.slice(0, site), ...tokens.slice(end)];
    // Conjuncts lie between WHERE, the ANDs and the end; drop one together with one AND.
    const bounds = [site, ...ands, end];
    const k = rng.int(bounds.length - 1);
    const from = k === 0 ? site + 1 : (bounds[k] as number);
    const to = k === 0 ? (bounds[1] as number) + 1 : (bounds[k + 1] as number);
    return [...tokens.slice(0, from), space, ...tokens.slice(to)];
  },
};

const BOUNDARY: Record<string, string> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>' };
const comparisonBoundary: CypherMutation = {
  name: 'comparison-boundary',
  sites: (tokens) => tokens.flatMap((t, i) => (t.kind === 'punct' && BOUNDARY[t.text] ? [i] : [])),
  apply(tokens, site) {
    const out = [...tokens];
    out[site] = punct(BOUNDARY[tokens[site]?.text as string] as string);
    return out;
  },
};

const AGGREGATION: Record<string, string> = { MIN: 'max', MAX: 'min', SUM: 'avg', AVG: 'sum' };
const wrongAggregation: CypherMutation = {
  name: 'wrong-aggregation',
  sites: (tokens) =>
    tokens.flatMap((t, i) =>
      t.kind === 'word' && AGGREGATION[t.text.toUpperCase()] && tokens[nextSig(tokens, i, 1)]?.text === '(' ? [i] : [],
    ),
  apply(tokens, site) {
    const out = [...tokens];
    out[site] = word(AGGREGATION[(tokens[site] as Token).text.toUpperCase()] as string);
    return out;
  },
};

const distinct: CypherMutation = {
  name: 'distinct',
  sites: (tokens) =>
    tokens.flatMap((t, i) => {
      if (isKeyword(t, 'RETURN', 'WITH')) return [i];
      if (
        isKeyword(t, 'COUNT', 'COLLECT') &&
        tokens[nextSig(tokens, i, 1)]?.text === '(' &&
        tokens[nextSig(tokens, nextSig(tokens, i, 1), 1)]?.text !== '*'
      )
        return [i];
      return [];
    }),
  apply(tokens, site) {
    const at = isKeyword(tokens[site], 'RETURN', 'WITH') ? site : nextSig(tokens, site, 1);
    const after = nextSig(tokens, at, 1);
    if (isKeyword(tokens[after], 'DISTINCT'))
      return [...tokens.slice(0, after), ...tokens.slice(tokens[after + 1]?.kind === 'space' ? after + 2 : after + 1)];
    const inserted = tokens[at]?.text === '(' ? [word('DISTINCT'), space] : [space, word('DISTINCT')];
    return [...tokens.slice(0, at + 1), ...inserted, ...tokens.slice(at + 1)];
  },
};

const orderDirection: CypherMutation = {
  name: 'order-direction',
  sites: (tokens) =>
    tokens.flatMap((t, i) => (isKeyword(t, 'ORDER') && isKeyword(tokens[nextSig(tokens, i, 1)], 'BY') ? [i] : [])),
  apply(tokens, site) {
    const by = nextSig(tokens, site, 1);
    const end = clauseEnd(tokens, by, [...CLAUSE_END, ',']);
    const last = nextSig(tokens, end, -1);
    const out = [...tokens];
    if (isKeyword(tokens[last], 'DESC', 'DESCENDING'))
      return [...tokens.slice(0, tokens[last - 1]?.kind === 'space' ? last - 1 : last), ...tokens.slice(last + 1)];
    if (isKeyword(tokens[last], 'ASC', 'ASCENDING')) {
      out[last] = word('DESC');
      return out;
    }
    return [...tokens.slice(0, last + 1), space, word('DESC'), ...tokens.slice(last + 1)];
  },
};

const limit: CypherMutation = {
  name: 'limit',
  sites: (tokens) =>
    tokens.flatMap((t, i) => (isKeyword(t, 'LIMIT') && tokens[nextSig(tokens, i, 1)]?.kind === 'number' ? [i] : [])),
  apply(tokens, site, rng) {
    const numberAt = nextSig(tokens, site, 1);
    const n = Number(tokens[numberAt]?.text);
    const choice = rng.int(3);
    if (choice === 2) return [...tokens.slice(0, site), ...tokens.slice(numberAt + 1)];
    const out = [...tokens];
    out[numberAt] = { kind: 'number', text: String(choice === 0 || n <= 1 ? n + 1 : n - 1) };
    return out;
  },
};

export const CYPHER_MUTATIONS: readonly CypherMutation[] = [
  flipDirection,
  dropFilter,
  comparisonBoundary,
  wrongAggregation,
  distinct,
  orderDirection,
  limit,
];

/** One random mutation that changes the query's text, or null when none applies. */
export function mutateCypher(
  query: string,
  rng: Rng,
  operators: readonly CypherMutation[] = CYPHER_MUTATIONS,
): { operator: string; query: string } | null {
  const tokens = tokenize(query);
  for (const op of rng.shuffle(operators)) {
    const sites = op.sites(tokens);
    if (sites.length === 0) continue;
    const mutated = op.apply(tokens, rng.pick(sites), rng);
    if (!mutated) continue;
    const text = untokenize(tidySpaces(mutated)).trim();
    if (text !== query.trim()) return { operator: op.name, query: text };
  }
  return null;
}

/** Adjacent spaces left by a removal become one space (never inside strings: those are single tokens). */
function tidySpaces(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const last = out.at(-1);
    if (t.kind === 'space' && last?.kind === 'space') out[out.length - 1] = space;
    else out.push(t);
  }
  return out;
}
