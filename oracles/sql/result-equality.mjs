// Whether two query results are equal under Python's equality (BIRD's evaluator compares Python
// tuples): values, rows (and rows out of the flat values a SQLite process sends), a table of a
// result's distinct rows, and the comparison of whole results in each mode. Plain JS: the SQLite
// child process compares a prediction's rows with its gold's where it read them, and the command
// compares the same way (result-equality.d.mts).

export function flatRows(width, chunks, rowCount) {
  const rows = [];
  if (width === 0) for (let r = 0; r < rowCount; r++) rows.push([]);
  else for (const chunk of chunks) for (let i = 0; i < chunk.length; i += width) rows.push(chunk.slice(i, i + width));
  return rows;
}

export function exactDouble(value) {
  const asDouble = Number(value);
  return BigInt(asDouble) === value ? asDouble : null;
}

export function sameValue(a, b) {
  if (a === b) return true; // null, text, one number (0 and -0 too), one bigint
  if (typeof a === 'number') {
    if (typeof b === 'bigint') return exactDouble(b) === a;
    return typeof b === 'number' && a !== a && b !== b; // NaN (SQLite returns none; the keys match)
  }
  if (typeof a === 'bigint') return typeof b === 'number' && exactDouble(a) === b;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    if (a.byteLength !== b.byteLength) return false;
    for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  return false;
}

export function sameRow(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
  return true;
}

// The table of a result's distinct rows: each row is hashed to a number (a number by its bits, text
// and bytes by every character) into an open-addressing table, and rows with the same slot are
// compared value by value — no key string per row, so nearly nothing to collect. The hash is seeded
// per process, so no result can be built in advance to make every row collide.
const float = new Float64Array(1);
const floatWords = new Int32Array(float.buffer);
const SEED = (Math.random() * 2 ** 32) | 0;

/** One step of MurmurHash3's 32-bit block mix. */
function mix(hash, word) {
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  hash ^= Math.imul(k, 0x1b873593);
  hash = (hash << 13) | (hash >>> 19);
  return (Math.imul(hash, 5) + 0xe6546b64) | 0;
}

/** Equal values under Python's equality hash alike: 1, 1.0, 1n and -0 / 0 take the number's form. */
function hashValue(hash, value) {
  if (value === null) return mix(hash, 0x3c6ef372);
  if (typeof value === 'number') {
    if ((value | 0) === value) return mix(mix(hash, 1), value);
    float[0] = value;
    return mix(mix(mix(hash, 2), floatWords[0]), floatWords[1]);
  }
  if (typeof value === 'bigint') {
    const asDouble = exactDouble(value);
    return asDouble !== null ? hashValue(hash, asDouble) : hashText(mix(hash, 3), value.toString());
  }
  if (typeof value === 'string') return hashText(mix(hash, 4), value);
  hash = mix(mix(hash, 5), value.byteLength);
  for (let i = 0; i < value.length; i++) hash = mix(hash, value[i]);
  return hash;
}

function hashText(hash, text) {
  hash = mix(hash, text.length);
  for (let i = 0; i < text.length; i++) hash = mix(hash, text.charCodeAt(i));
  return hash;
}

export function hashRow(row) {
  let hash = mix(SEED, row.length);
  for (const value of row) hash = hashValue(hash, value);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

export class RowTable {
  constructor(rows, hash = hashRow) {
    this.hash = hash;
    this.rows = [];
    let capacity = 16;
    while (capacity < rows.length * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity); // position in `rows` + 1 of the row in each slot; 0: empty
    this.hashes = new Int32Array(rows.length);
    this.counts = new Int32Array(rows.length);
    for (const row of rows) {
      const h = this.hash(row);
      const slot = this.slotOf(row, h);
      const at = this.slots[slot] - 1;
      if (at >= 0) this.counts[at] = this.counts[at] + 1;
      else {
        this.slots[slot] = this.rows.push(row);
        this.hashes[this.rows.length - 1] = h;
        this.counts[this.rows.length - 1] = 1;
      }
    }
  }

  find(row) {
    return this.slots[this.slotOf(row, this.hash(row))] - 1;
  }

  /** The slot holding the row equal to `row` (whose hash is `h`), or the empty slot where it would go. */
  slotOf(row, h) {
    let slot = h & this.mask;
    for (;;) {
      const at = this.slots[slot] - 1;
      if (at < 0 || (this.hashes[at] === h && sameRow(this.rows[at], row))) return slot;
      slot = (slot + 1) & this.mask;
    }
  }
}

/**
 * The same rows in the same order, value for value under `===` (numbers, text, big integers, NULL):
 * equal in every mode, and decided without building keys. Blobs never pass (they are compared by key).
 */
function identicalRows(actual, expected) {
  if (actual.length !== expected.length) return false;
  for (let r = 0; r < actual.length; r++) {
    const a = actual[r];
    const e = expected[r];
    if (a.length !== e.length) return false;
    for (let c = 0; c < a.length; c++) if (a[c] !== e[c]) return false;
  }
  return true;
}

export function resultsEqual(actual, expected, mode, goldOrdered = false) {
  if (identicalRows(actual, expected)) return true;
  if (mode !== 'set' && actual.length !== expected.length) return false;
  if (mode === 'ordered' && goldOrdered) return actual.every((row, i) => sameRow(row, expected[i]));
  // The candidate's rows are looked up among the gold's as they come: the first one the gold lacks ends it.
  const gold = new RowTable(expected);
  if (mode === 'set') {
    const seen = new Uint8Array(gold.rows.length);
    let matched = 0;
    for (const row of actual) {
      const at = gold.find(row);
      if (at < 0) return false;
      if (seen[at] === 0) {
        seen[at] = 1;
        matched++;
      }
    }
    return matched === gold.rows.length;
  }
  const left = gold.counts.slice();
  for (const row of actual) {
    const at = gold.find(row);
    if (at < 0 || left[at] === 0) return false;
    left[at] = left[at] - 1;
  }
  return true; // as many rows on each side, each of the candidate's matched one of the gold's
}
