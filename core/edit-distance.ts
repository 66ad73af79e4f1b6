/** Token-level Levenshtein distance: the edit metric behind structural stability. */

/**
 * The minimum number of single-token insertions, deletions and substitutions that turn `a` into
 * `b` (tokens compared with `===`). The common prefix and suffix are trimmed first (exact, and it
 * keeps a long answer repeated or changed in one place linear); then a two-row dynamic programme
 * over the rest: O(|a|·|b|) time, O(|b|) space.
 */
export function editDistance<T>(whole: readonly T[], other: readonly T[]): number {
  let start = 0;
  while (start < whole.length && start < other.length && whole[start] === other[start]) start++;
  let end = 0;
  while (
    end < whole.length - start &&
    end < other.length - start &&
    whole[whole.length - 1 - end] === other[other.length - 1 - end]
  )
    end++;
  const a = whole.slice(start, whole.length - end);
  const b = other.slice(start, other.length - end);
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (ai === b[j - 1] ? 0 : 1);
      const deletion = (previous[j] as number) + 1;
      const insertion = (current[j - 1] as number) + 1;
      current[j] = Math.min(substitution, deletion, insertion);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}
