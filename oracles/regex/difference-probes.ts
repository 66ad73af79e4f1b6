/**
 * Probes aimed at an undecided difference (hardening): when the exact comparison of gold and
 * candidate ran out of budget, the words at the lazy product's frontier, random completions of
 * them, and random members of each side (random walks over the derivatives, which need no DFA),
 * so the final probe pass looks where the exact check could not. Deterministic for the rng.
 */
import type { Rng } from '../../core/random.ts';
import type { CompiledRegex } from './compile.ts';
import { TermBudgetError, TermTable, type Term } from './derivatives.ts';
import { compareWithFrontier } from './equivalence.ts';
import { isStackOverflow } from './errors.ts';
import { blockRepresentatives } from './product.ts';

const MAX_WALK = 64;
const TABLE_LIMIT = 20_000;

/** Up to `count` probe words for an undecided pair; none when the comparison was decided. */
export function differenceProbes(gold: CompiledRegex, candidate: CompiledRegex, rng: Rng, count: number): string[] {
  const { comparison, frontier } = compareWithFrontier(gold, candidate);
  if (comparison.decided || count <= 0) return [];
  const out = new Set<string>(frontier.slice(0, Math.ceil(count / 4)));
  if (!gold.node || !candidate.node) return [...out];
  const table = new TermTable(TABLE_LIMIT);
  try {
    const start: [Term, Term] = [table.fromNode(gold.node), table.fromNode(candidate.node)];
    const starts = [
      { word: '', state: start },
      ...frontier.map((word) => ({ word, state: along(table, start, word) })),
    ];
    for (let attempt = 0; out.size < count && attempt < count * 4; attempt++) {
      const { word, state } = rng.pick(starts);
      for (const probe of walk(table, state, word, rng)) out.add(probe);
    }
  } catch (error) {
    if (!(error instanceof TermBudgetError) && !isStackOverflow(error)) throw error;
  }
  return [...out].slice(0, count);
}

function along(table: TermTable, [g, c]: [Term, Term], word: string): [Term, Term] {
  for (let i = 0; i < word.length; i++) {
    const char = word.charCodeAt(i);
    [g, c] = [table.derive(g, char), table.derive(c, char)];
  }
  return [g, c];
}

/** One random walk from a state; yields the words where either side accepts (or gives up at MAX_WALK). */
function* walk(table: TermTable, [g, c]: [Term, Term], prefix: string, rng: Rng): Generator<string> {
  let word = prefix;
  for (let step = 0; step < MAX_WALK; step++) {
    // Only characters after which some side can still accept something (not both empty).
    const [gNow, cNow] = [g, c];
    const alive = blockRepresentatives([...table.classes(g), ...table.classes(c)]).filter(
      (char) => table.derive(gNow, char).kind !== 'empty' || table.derive(cNow, char).kind !== 'empty',
    );
    if (alive.length === 0) break;
    const char = rng.pick(alive);
    word += String.fromCharCode(char);
    [g, c] = [table.derive(g, char), table.derive(c, char)];
    if ((g.nullable || c.nullable) && rng.chance(g.nullable !== c.nullable ? 1 : 0.1)) yield word;
  }
  yield word;
}
