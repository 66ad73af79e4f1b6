/**
 * The distinct rows of a result and how often each occurs, under Python's equality (values.ts),
 * for comparing results of hundreds of thousands of rows: each row is hashed to a number (a number
 * by its bits, text and bytes by every character) into an open-addressing table, and rows with the
 * same slot are compared value by value — no key string per row, so nearly nothing to collect.
 * The hash is seeded per process, so no result can be built in advance to make every row collide.
 */
import { exactDouble, sameRow, type SqlRow, type SqlValue } from './values.ts';

const float = new Float64Array(1);
const floatWords = new Int32Array(float.buffer);
const SEED = (Math.random() * 2 ** 32) | 0;

/** One step of MurmurHash3's 32-bit block mix. */
function mix(hash: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  hash ^= Math.imul(k, 0x1b873593);
  hash = (hash << 13) | (hash >>> 19);
  return (Math.imul(hash, 5) + 0xe6546b64) | 0;
}

/** Equal values under Python's equality hash alike: 1, 1.0, 1n and -0 / 0 take the number's form. */
function hashValue(hash: number, value: SqlValue): number {
  if (value === null) return mix(hash, 0x3c6ef372);
  if (typeof value === 'number') {
    if ((value | 0) === value) return mix(mix(hash, 1), value);
    float[0] = value;
    return mix(mix(mix(hash, 2), floatWords[0] as number), floatWords[1] as number);
  }
  if (typeof value === 'bigint') {
    const asDouble = exactDouble(value);
    return asDouble !== null ? hashValue(hash, asDouble) : hashText(mix(hash, 3), value.toString());
  }
  if (typeof value === 'string') return hashText(mix(hash, 4), value);
  hash = mix(mix(hash, 5), value.byteLength);
  for (let i = 0; i < value.length; i++) hash = mix(hash, value[i] as number);
  return hash;
}

function hashText(hash: number, text: string): number {
  hash = mix(hash, text.length);
  for (let i = 0; i < text.length; i++) hash = mix(hash, text.charCodeAt(i));
  return hash;
}

/** The row's hash (MurmurHash3's finalizer over its values' mix). */
export function hashRow(row: readonly SqlValue[]): number {
  let hash = mix(SEED, row.length);
  for (const value of row) hash = hashValue(hash, value);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

export class RowTable {
  /** One row of each distinct kind, in the order they first occur. */
  readonly rows: SqlRow[] = [];
  /** How often each distinct row occurs, by its position in `rows`. */
  readonly counts: Int32Array;
  private readonly hashes: Int32Array;
  /** Position in `rows` + 1 of the row in each slot; 0: empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** `hash` is a parameter for tests (a constant one makes every row collide). */
  constructor(
    rows: readonly SqlRow[],
    private readonly hash: (row: readonly SqlValue[]) => number = hashRow,
  ) {
    let capacity = 16;
    while (capacity < rows.length * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity);
    this.hashes = new Int32Array(rows.length);
    this.counts = new Int32Array(rows.length);
    for (const row of rows) {
      const h = this.hash(row);
      const slot = this.slotOf(row, h);
      const at = (this.slots[slot] as number) - 1;
      if (at >= 0) this.counts[at] = (this.counts[at] as number) + 1;
      else {
        this.slots[slot] = this.rows.push(row);
        this.hashes[this.rows.length - 1] = h;
        this.counts[this.rows.length - 1] = 1;
      }
    }
  }

  /** The position in `rows` of the row equal to `row`, or -1. */
  find(row: readonly SqlValue[]): number {
    return (this.slots[this.slotOf(row, this.hash(row))] as number) - 1;
  }

  /** The slot holding the row equal to `row` (whose hash is `h`), or the empty slot where it would go. */
  private slotOf(row: readonly SqlValue[], h: number): number {
    let slot = h & this.mask;
    for (;;) {
      const at = (this.slots[slot] as number) - 1;
      if (at < 0 || (this.hashes[at] === h && sameRow(this.rows[at] as SqlRow, row))) return slot;
      slot = (slot + 1) & this.mask;
    }
  }
}
