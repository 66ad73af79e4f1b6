/**
 * `work` over `items` with at most `limit` calls in flight, results in the items' order. Items
 * start in order, each as soon as an earlier one is done: a run over thousands of items keeps only
 * `limit` of them alive at once, so its garbage stays young and cheap to collect.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i] as T);
      }
    }),
  );
  return out;
}
