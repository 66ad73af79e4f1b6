/**
 * Canonical JSON for hashing: object keys sorted by UTF-16 code units, no whitespace, the same
 * value semantics as `JSON.stringify` otherwise (`toJSON` honoured, `undefined` object members
 * dropped, `undefined` array elements written as `null`). Values JSON cannot represent faithfully
 * (non-finite numbers, bigints, functions, symbols, cycles) throw instead of being silently
 * changed, so two different inputs never hash alike by accident.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  const out = write(value, [], '$');
  if (out === undefined)
    throw new TypeError('canonicalJson: the top-level value is not JSON (undefined, function or symbol)');
  return out;
}

/** Hex sha256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function write(value: unknown, stack: object[], path: string): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON('');
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} at ${path} is not a finite number`);
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw new TypeError(`canonicalJson: bigint at ${path} has no JSON form`);
    case 'object':
      break;
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (stack.includes(obj)) throw new TypeError(`canonicalJson: cycle at ${path}`);
  stack.push(obj);
  try {
    if (Array.isArray(obj)) {
      return `[${obj.map((item, i) => write(item, stack, `${path}[${i}]`) ?? 'null').join(',')}]`;
    }
    const record = obj as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const item = write(record[key], stack, `${path}.${key}`);
      if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    stack.pop();
  }
}
