/**
 * One entry point from regex source to everything the oracle needs: AST, minimal DFA, and a fast
 * full-match `test`. Results (and syntax errors) are cached by (dialect, flags, source) in a
 * bounded LRU, so a gold compared against many candidates is parsed and determinised once.
 *
 * Conventions: full-match semantics, UTF-16 code units 0–0xFFFF, `.` matches every character in
 * both dialects (ECMAScript is compiled as if `s` were set). `flags` on the result are the
 * effective ones (see ecmascript.ts); brics takes no flags. The DFA is shared through the cache:
 * treat it as read-only (`copy()` before `complement()` or any other in-place operation).
 * A brics regex is always regular: past the node budget (or nested too deeply to recurse over) it
 * throws RegexTooComplexError. An ECMAScript regex past the budget keeps its AST but has no DFA
 * (`nonRegular` says why): V8 matches it and the lazy product compares it.
 */
import type { DFA } from 'refa';
import { BoundedCache } from '../../core/bounded-cache.ts';
import type { Dialect, RegexNode } from './ast.ts';
import { MAX_DFA_NODES, dfaTable, tableAccepts, toDfa, type DfaTable } from './automaton.ts';
import { parseBrics } from './brics.ts';
import { parseEcmascript } from './ecmascript.ts';
import { isStackOverflow, RegexSyntaxError, RegexTooComplexError } from './errors.ts';

export interface CompiledRegex {
  source: string;
  dialect: Dialect;
  flags: string;
  /** The AST; null when the automaton engine cannot express the regex (non-regular, or nested too deeply). */
  node: RegexNode | null;
  /** Minimal DFA when regular (shared: do not mutate). */
  dfa: DFA | null;
  /** Why there is no DFA. */
  nonRegular?: string;
  /** Present iff `dfa` is: fast synchronous full-match test. */
  test?(input: string): boolean;
  /** The compiled matching table behind `test`. */
  table?: DfaTable;
}

const cache = new BoundedCache<string, CompiledRegex | RegexSyntaxError | RegexTooComplexError>({
  maxEntries: 2_000,
  order: 'lru',
});

export function compileRegex(source: string, dialect: Dialect, flags = ''): CompiledRegex {
  const key = `${dialect}\u0000${flags}\u0000${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    if (hit instanceof Error) throw hit;
    return hit;
  }
  let result: CompiledRegex | RegexSyntaxError | RegexTooComplexError;
  try {
    result = dialect === 'brics' ? compileBrics(source, flags) : compileEcmascript(source, flags);
  } catch (error) {
    if (!(error instanceof RegexSyntaxError) && !(error instanceof RegexTooComplexError)) throw error;
    result = error;
  }
  cache.set(key, result);
  if (result instanceof Error) throw result;
  return result;
}

/** Empties the compile cache (tests and benchmarks that want cold timings). */
export function clearCompileCache(): void {
  cache.clear();
}

const TOO_DEEP = 'the regex is nested too deeply for the automaton engine';

function compileBrics(source: string, flags: string): CompiledRegex {
  if (flags !== '') throw new RegexSyntaxError(`brics regexes take no flags (got '${flags}')`, 'brics');
  try {
    const node = parseBrics(source);
    return regular(source, 'brics', '', node, toDfa(node));
  } catch (error) {
    if (isStackOverflow(error)) throw new RegexTooComplexError(TOO_DEEP, MAX_DFA_NODES);
    throw error;
  }
}

function compileEcmascript(source: string, flags: string): CompiledRegex {
  const parsed = parseEcmascript(source, flags);
  if (parsed.node === null) {
    return {
      source,
      dialect: 'ecmascript',
      flags: parsed.flags,
      node: null,
      dfa: null,
      nonRegular: parsed.nonRegular ?? 'not regular',
    };
  }
  try {
    return regular(source, 'ecmascript', parsed.flags, parsed.node, toDfa(parsed.node));
  } catch (error) {
    // Past the DFA budget the AST stays: V8 matches, the lazy product compares.
    if (error instanceof RegexTooComplexError)
      return {
        source,
        dialect: 'ecmascript',
        flags: parsed.flags,
        node: parsed.node,
        dfa: null,
        nonRegular: error.message,
      };
    if (isStackOverflow(error))
      return { source, dialect: 'ecmascript', flags: parsed.flags, node: null, dfa: null, nonRegular: TOO_DEEP };
    throw error;
  }
}

function regular(source: string, dialect: Dialect, flags: string, node: RegexNode, dfa: DFA): CompiledRegex {
  const table = dfaTable(dfa);
  return { source, dialect, flags, node, dfa, table, test: (input: string) => tableAccepts(table, input) };
}

/** `"/abc/i"` → `{ source: 'abc', flags: 'i' }`; null when the text is not a regex literal. */
export function parseRegexLiteral(text: string): { source: string; flags: string } | null {
  const match = /^\/((?:[^\\/[\n]|\\.|\[(?:[^\\\]\n]|\\.)*\])+)\/([a-z]*)$/s.exec(text.trim());
  if (!match) return null;
  return { source: match[1] as string, flags: match[2] as string };
}
