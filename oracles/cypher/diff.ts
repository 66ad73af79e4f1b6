/**
 * Where two results differ, for feedback: which gold rows are missing from the candidate's result,
 * which of its rows are unexpected, and (when order matters) the first row out of place. Columns
 * are aligned by the best permutation — the exact one when it exists, else the one that matches
 * the most rows — so a candidate with its columns in another order still gets row-level witnesses.
 * Pure; the verdict itself comes from compare.ts.
 */
import { keyRows, type ComparisonOptions } from './compare.ts';
import { findColumnPermutation, permuteRows } from './permutation.ts';
import type { Cell, ResultTable } from './values.ts';

export interface RowDiff {
  /** Column counts are equal, so rows could be aligned. */
  aligned: boolean;
  /** Predicted column `permutation[i]` plays gold column `i` (null when not aligned). */
  permutation: number[] | null;
  /** The candidate's column names in gold column order (null when not aligned). */
  alignedColumns: string[] | null;
  /** Gold rows with no matching candidate row (multiset difference), in gold order. */
  missing: Cell[][];
  /** Candidate rows with no matching gold row, in gold column order when aligned. */
  extra: Cell[][];
  /** Per gold row: a matching candidate row was found (duplicates each need their own). */
  goldPresent: boolean[];
  /** Same rows, wrong order: the first position where they differ (0-based). */
  misordered?: { position: number; expected: Cell[]; actual: Cell[] };
}

const SEP = '\u0001';
const EXHAUSTIVE_UP_TO = 6;

function rowKeys(keys: string[][]): string[] {
  return keys.map((row) => row.join(SEP));
}

function overlap(goldRows: readonly string[], predRows: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const r of predRows) counts.set(r, (counts.get(r) ?? 0) + 1);
  let matched = 0;
  for (const r of goldRows) {
    const n = counts.get(r);
    if (n) {
      matched++;
      counts.set(r, n - 1);
    }
  }
  return matched;
}

function* permutations(n: number): Generator<number[]> {
  const perm = Array.from({ length: n }, (_, i) => i);
  const c = new Array<number>(n).fill(0);
  yield perm.slice();
  let i = 0;
  while (i < n) {
    if ((c[i] as number) < i) {
      const j = i % 2 === 0 ? 0 : (c[i] as number);
      [perm[j], perm[i]] = [perm[i] as number, perm[j] as number];
      yield perm.slice();
      c[i] = (c[i] as number) + 1;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
}

/** The permutation matching the most rows: exhaustive for few columns, greedy by column overlap beyond. */
function bestPermutation(gold: string[][], pred: string[][], width: number): number[] {
  const goldRows = rowKeys(gold);
  if (width <= EXHAUSTIVE_UP_TO) {
    let best = Array.from({ length: width }, (_, i) => i);
    let bestScore = -1;
    for (const perm of permutations(width)) {
      const score = overlap(goldRows, rowKeys(permuteRows(pred, perm)));
      if (score > bestScore) {
        best = perm;
        bestScore = score;
      }
    }
    return best;
  }
  const used = new Set<number>();
  return Array.from({ length: width }, (_, i) => {
    const goldColumn = gold.map((r) => r[i] as string);
    let bestJ = -1;
    let bestScore = -1;
    for (let j = 0; j < width; j++) {
      if (used.has(j)) continue;
      const score = overlap(
        goldColumn,
        pred.map((r) => r[j] as string),
      );
      if (score > bestScore) {
        bestJ = j;
        bestScore = score;
      }
    }
    used.add(bestJ);
    return bestJ;
  });
}

/** Row-level differences between the gold result and a candidate's. Throws UncomparableValueError on opaque values. */
export function diffResults(gold: ResultTable, pred: ResultTable, options: ComparisonOptions): RowDiff {
  const goldKeys = keyRows(gold, options);
  const predKeys = keyRows(pred, options);
  const width = gold.columns.length;
  const aligned = width === pred.columns.length || pred.rows.length === 0 || gold.rows.length === 0;
  if (!aligned) {
    return {
      aligned: false,
      permutation: null,
      alignedColumns: null,
      missing: gold.rows.map((r) => [...r]),
      extra: pred.rows.map((r) => [...r]),
      goldPresent: gold.rows.map(() => false),
    };
  }
  const predWidth = pred.columns.length;
  const identity = Array.from({ length: predWidth }, (_, i) => i);
  const permutation =
    gold.rows.length === 0 || pred.rows.length === 0
      ? identity
      : (findColumnPermutation(goldKeys, predKeys, false) ?? bestPermutation(goldKeys, predKeys, width));
  const predAligned = permuteRows(predKeys, permutation);
  const predRowsAligned = permuteRows(pred.rows, permutation);
  const goldRowKeys = rowKeys(goldKeys);
  const predRowKeys = rowKeys(predAligned);

  const available = new Map<string, number[]>();
  predRowKeys.forEach((k, i) => available.set(k, [...(available.get(k) ?? []), i]));
  const matchedPred = new Set<number>();
  const goldPresent = goldRowKeys.map((k) => {
    const slots = available.get(k);
    const i = slots?.shift();
    if (i === undefined) return false;
    matchedPred.add(i);
    return true;
  });
  const missing = gold.rows.filter((_, i) => !goldPresent[i]).map((r) => [...r]);
  const extra = predRowsAligned.filter((_, i) => !matchedPred.has(i));
  const diff: RowDiff = {
    aligned: true,
    permutation,
    alignedColumns: permutation.map((j) => pred.columns[j] as string),
    missing,
    extra,
    goldPresent,
  };
  if (options.orderMatters && missing.length === 0 && extra.length === 0) {
    const position = goldRowKeys.findIndex((k, i) => k !== predRowKeys[i]);
    if (position >= 0) {
      diff.misordered = {
        position,
        expected: [...(gold.rows[position] as Cell[])],
        actual: predRowsAligned[position] as Cell[],
      };
    }
  }
  return diff;
}
