/**
 * Exact column-permutation search for the CypherBench comparison. Given two tables of cell keys
 * with the same shape, find a bijection of columns under which the rows are equal as a multiset
 * (or, when order matters, as a list). The original samples 20 rows to prune candidates for more
 * than 3 columns and then enumerates a cartesian product; here every column count is searched
 * exactly and cheaply:
 *
 * 1. a gold column can only map to a predicted column with the same value multiset (the same value
 *    sequence when order matters) — a necessary condition;
 * 2. columns are assigned one at a time, most constrained first, and each partial assignment must
 *    already give equal multisets of partial rows (also necessary), which prunes early;
 * 3. predicted columns with identical contents are interchangeable, so only one of them is tried
 *    at each step.
 *
 * The search is exhaustive over what remains, so it finds a permutation exactly when one exists.
 */

/** Rows of canonical cell keys, all rows the same length. */
export type KeyTable = readonly (readonly string[])[];

const SEP = '\u0001';

function column(table: KeyTable, index: number): string[] {
  return table.map((row) => row[index] as string);
}

function multisetSignature(values: readonly string[]): string {
  return [...values].sort().join(SEP);
}

function equalMultisets(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<string, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  for (const x of b) {
    const n = counts.get(x);
    if (!n) return false;
    counts.set(x, n - 1);
  }
  return true;
}

/**
 * A permutation `p` (predicted column `p[i]` plays gold column `i`) under which the tables are
 * equal — as row lists when `ordered`, else as row multisets — or null when none exists.
 */
export function findColumnPermutation(gold: KeyTable, pred: KeyTable, ordered: boolean): number[] | null {
  if (gold.length !== pred.length) return null;
  const width = gold[0]?.length ?? 0;
  if (gold.length === 0) return pred.length === 0 ? [] : null;
  if ((pred[0]?.length ?? 0) !== width) return null;

  const goldColumns = Array.from({ length: width }, (_, i) => column(gold, i));
  const predColumns = Array.from({ length: width }, (_, j) => column(pred, j));
  const signature = ordered ? (values: string[]) => values.join(SEP) : multisetSignature;
  const goldSignatures = goldColumns.map(signature);
  const predSignatures = predColumns.map(signature);
  const predContent = predColumns.map((values) => values.join(SEP));

  const candidates = goldSignatures.map((sig) => predSignatures.flatMap((p, j) => (p === sig ? [j] : [])));
  if (candidates.some((c) => c.length === 0)) return null;

  if (ordered) {
    // Equal sequences column by column make equal row lists; any matching of equal columns works.
    const used = new Set<number>();
    const perm: number[] = [];
    for (const options of candidates) {
      const j = options.find((o) => !used.has(o));
      if (j === undefined) return null;
      used.add(j);
      perm.push(j);
    }
    return perm;
  }

  const order = goldColumns
    .map((_, i) => i)
    .sort((a, b) => (candidates[a] as number[]).length - (candidates[b] as number[]).length || a - b);
  const perm: number[] = new Array(width).fill(-1);
  const used = new Set<number>();
  const rows = gold.length;

  const search = (depth: number, goldPartial: string[], predPartial: string[]): boolean => {
    if (depth === width) return true;
    const g = order[depth] as number;
    const tried = new Set<string>();
    for (const j of candidates[g] as number[]) {
      if (used.has(j)) continue;
      const content = predContent[j] as string;
      if (tried.has(content)) continue;
      tried.add(content);
      const nextGold = new Array<string>(rows);
      const nextPred = new Array<string>(rows);
      const gc = goldColumns[g] as string[];
      const pc = predColumns[j] as string[];
      for (let r = 0; r < rows; r++) {
        nextGold[r] = `${goldPartial[r]}${SEP}${gc[r]}`;
        nextPred[r] = `${predPartial[r]}${SEP}${pc[r]}`;
      }
      if (!equalMultisets(nextGold, nextPred)) continue;
      used.add(j);
      perm[g] = j;
      if (search(depth + 1, nextGold, nextPred)) return true;
      used.delete(j);
      perm[g] = -1;
    }
    return false;
  };

  const empty = new Array<string>(rows).fill('');
  return search(0, empty, empty) ? perm : null;
}

/** The rows of `table` with its columns rearranged by `perm` (column `perm[i]` becomes column `i`). */
export function permuteRows<T>(table: readonly (readonly T[])[], perm: readonly number[]): T[][] {
  return table.map((row) => perm.map((j) => row[j] as T));
}
