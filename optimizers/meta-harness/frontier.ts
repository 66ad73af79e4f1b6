/**
 * The Meta-Harness frontier: the Pareto set of candidates over Pass@final (higher is better) and
 * mean tokens per episode (lower is better).
 *
 * A candidate is a member iff no other candidate dominates it (at least as good on both, strictly
 * better on one). Ties, explicitly: candidates with identical scores do not dominate each other, so
 * all of them are members; a candidate with the same tokens as a member but a lower Pass@final is
 * dominated and left out. The reference implementation (sort by accuracy descending, then context
 * ascending, keep a point iff its context ≤ the minimum seen so far) would keep that last one; this
 * is the one deliberate difference. Members come out best first: Pass@final descending, then
 * tokens ascending, then id, so the result does not depend on the input order.
 */

export interface FrontierCandidate {
  id: string;
  /** Share of search episodes whose final program passed, in [0, 1]. */
  passAtFinal: number;
  /** Mean model tokens (prompt + completion) per episode, ≥ 0. */
  meanTokens: number;
}

/** True when `a` is at least as good as `b` on both objectives and strictly better on one. */
export function dominates(a: FrontierCandidate, b: FrontierCandidate): boolean {
  const noWorse = a.passAtFinal >= b.passAtFinal && a.meanTokens <= b.meanTokens;
  return noWorse && (a.passAtFinal > b.passAtFinal || a.meanTokens < b.meanTokens);
}

/** Best first: Pass@final descending, tokens ascending, id ascending. */
export function byFrontierOrder(a: FrontierCandidate, b: FrontierCandidate): number {
  return b.passAtFinal - a.passAtFinal || a.meanTokens - b.meanTokens || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Problems with candidate scores (each names the candidate); empty when all are valid. */
export function frontierInputProblems(candidates: readonly FrontierCandidate[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (seen.has(c.id)) problems.push(`candidate ${c.id} is listed twice`);
    seen.add(c.id);
    if (!(c.passAtFinal >= 0 && c.passAtFinal <= 1))
      problems.push(`candidate ${c.id}: passAtFinal must be between 0 and 1, got ${c.passAtFinal}`);
    if (!(c.meanTokens >= 0 && Number.isFinite(c.meanTokens)))
      problems.push(`candidate ${c.id}: meanTokens must be a finite number ≥ 0, got ${c.meanTokens}`);
  }
  return problems;
}

/** The Pareto frontier, best first (see the module comment for ties). Throws on invalid scores, naming the candidate. */
export function paretoFrontier<T extends FrontierCandidate>(candidates: readonly T[]): T[] {
  const problems = frontierInputProblems(candidates);
  if (problems.length > 0) throw new Error(`frontier: ${problems.join('; ')}`);
  const sorted = [...candidates].sort(byFrontierOrder);
  const members: T[] = [];
  let minTokens = Infinity;
  let passAtMin = -Infinity;
  for (const c of sorted) {
    // After the sort, c is dominated iff an earlier point has fewer tokens, or the same tokens and a higher pass.
    if (c.meanTokens < minTokens) {
      members.push(c);
      minTokens = c.meanTokens;
      passAtMin = c.passAtFinal;
    } else if (c.meanTokens === minTokens && c.passAtFinal === passAtMin) {
      members.push(c);
    }
  }
  return members;
}
