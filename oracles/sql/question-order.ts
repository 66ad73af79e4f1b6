/**
 * The order in which `eval bird` starts its questions. On a re-run the gold cache knows how long each
 * gold took, and a prediction mostly takes about as long as its gold (a mutant of it, or the gold
 * itself), so the longest go first: the children then end together instead of one finishing a
 * long query alone while the others idle (longest-processing-time-first scheduling). Questions
 * whose gold is not kept run both queries and go before all of them. Ties keep the file's order.
 */
export function longestFirst<T>(items: readonly T[], recordedMs: (item: T) => number | undefined): T[] {
  return items
    .map((item, at) => ({ item, at, ms: recordedMs(item) ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => (a.ms === b.ms ? a.at - b.at : a.ms > b.ms ? -1 : 1))
    .map(({ item }) => item);
}
