/**
 * CypherBench execution accuracy (benchmarks.md §2.1), as a pure function over two result tables:
 * both empty → equal; one empty → different; row and column counts must match; column names are
 * ignored and column order is free; rows are compared as a multiset, or as a list when the gold
 * query contains `order by`; lists inside cells are compared sorted, dates as ISO strings, NULL is
 * an ordinary value, ints and floats by value.
 *
 * Beyond the original: the column permutation is found exactly for any column count (see
 * permutation.ts) instead of by sampling 20 rows; the verdict is the same whenever the original
 * finishes, without its cartesian-product blow-up.
 */
import { findColumnPermutation } from './permutation.ts';
import { cellKey, type KeyOptions, type ResultTable } from './values.ts';

export interface ComparisonOptions extends KeyOptions {
  /** Compare rows as a list (the gold query contains ORDER BY) instead of as a multiset. */
  orderMatters: boolean;
}

export type ComparisonReason = 'both-empty' | 'equal' | 'one-empty' | 'row-count' | 'column-count' | 'no-permutation';

export interface ComparisonOutcome {
  equal: boolean;
  reason: ComparisonReason;
  /** When equal with rows: predicted column `permutation[i]` plays gold column `i`. */
  permutation?: number[];
}

/** CypherBench's rule: order matters when the lower-cased gold query contains the substring `order by`. */
export function orderMattersFor(goldQuery: string): boolean {
  return goldQuery.toLowerCase().includes('order by');
}

/** Every row of a table as canonical cell keys. Throws UncomparableValueError on opaque values. */
export function keyRows(table: ResultTable, options: KeyOptions = {}): string[][] {
  return table.rows.map((row) => row.map((cell) => cellKey(cell, options)));
}

/** Execution-accuracy equality of a predicted result with the gold result. */
export function compareResults(gold: ResultTable, pred: ResultTable, options: ComparisonOptions): ComparisonOutcome {
  const goldKeys = keyRows(gold, options);
  const predKeys = keyRows(pred, options);
  if (goldKeys.length === 0 && predKeys.length === 0) return { equal: true, reason: 'both-empty' };
  if (goldKeys.length === 0 || predKeys.length === 0) return { equal: false, reason: 'one-empty' };
  if (goldKeys.length !== predKeys.length) return { equal: false, reason: 'row-count' };
  if (gold.columns.length !== pred.columns.length) return { equal: false, reason: 'column-count' };
  const permutation = findColumnPermutation(goldKeys, predKeys, options.orderMatters);
  return permutation ? { equal: true, reason: 'equal', permutation } : { equal: false, reason: 'no-permutation' };
}
