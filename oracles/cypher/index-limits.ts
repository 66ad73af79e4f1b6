/**
 * What Neo4j 5.20 can index. The loader indexes every property it stores, as CypherBench's loader
 * does (load-graph.ts), and a RANGE index refuses a value whose key is over 8,164 bytes ("Property
 * value is too large to index"). A graph with such a value can never be served, so it is refused
 * when read, naming the value, instead of after starting a server and sending it: a 300 MB string
 * made the load run two minutes and end as "Failed to connect to server".
 *
 * Key sizes measured on Neo4j 5.20 (the launcher's, page size 8 KiB): a string is its UTF-8 bytes
 * (8,164 ASCII, 4,082 two-byte, 2,721 three-byte, 2,041 four-byte characters fit); a list of strings
 * 2 bytes per element plus their UTF-8 (2,721 one-character strings fit); a list of integers, floats
 * or dates 8 bytes per element (1,020 fit); a list of booleans 1 byte per element (8,164 fit).
 */

/** A SimpleKG value (simplekg.ts) and its declared type, e.g. `str` or `list[date]`. */
type Value = string | number | boolean | readonly (string | number | boolean)[];

/** The largest key, in bytes, a Neo4j 5.20 RANGE index takes. */
export const INDEX_KEY_LIMIT_BYTES = 8164;

/** The bytes `value`, stored as `dtype`, takes as a RANGE index key (dates are ISO strings in SimpleKG, 8 bytes in Neo4j). */
export function indexKeyBytes(dtype: string, value: Value): number {
  if (!Array.isArray(value)) return dtype === 'str' ? Buffer.byteLength(value as string, 'utf8') : 8;
  if (dtype === 'list[bool]') return value.length;
  if (dtype !== 'list[str]') return 8 * value.length;
  let bytes = 0;
  for (const element of value as string[]) bytes += 2 + Buffer.byteLength(element, 'utf8');
  return bytes;
}

/** Why `value`, stored as `dtype`, cannot be indexed (its size and the limit), or null when it can. */
export function indexKeyProblem(dtype: string, value: Value, limit = INDEX_KEY_LIMIT_BYTES): string | null {
  const bytes = indexKeyBytes(dtype, value);
  if (bytes <= limit) return null;
  return `is ${bytes.toLocaleString('en-US')} bytes as an index key; Neo4j's indexes take at most ${limit.toLocaleString('en-US')} bytes, and every stored property is indexed (as CypherBench's loader does)`;
}
