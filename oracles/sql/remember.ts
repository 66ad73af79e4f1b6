/** Memoization in a map of bounded size: when full, the oldest entry goes (insertion order). */
export function remember<K, V>(map: Map<K, V>, key: K, max: number, make: () => V): V {
  if (map.has(key)) return map.get(key) as V;
  if (map.size >= max) map.delete(map.keys().next().value as K);
  const value = make();
  map.set(key, value);
  return value;
}
