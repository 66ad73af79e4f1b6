/**
 * Measures PackStream values (Bolt's encoding) as their bytes arrive, without decoding them: every
 * value (a number, a string, a list, a map key, a row) counts VALUE_BYTES, every string and byte
 * array adds its length, and the nesting depth is tracked. A container's elements are charged when
 * its header is read, so a list of ten million integers or a 1 GB string is over any cap at its
 * first bytes. Pure and incremental: bytes may be fed in pieces split anywhere.
 */

/** What one value costs besides the bytes of strings and byte arrays. */
export const VALUE_BYTES = 8;

type Header = 'string' | 'bytes' | 'list' | 'map';

/** Sizes of the length fields after the 8-, 16- and 32-bit markers, by marker. */
const SIZED: Record<number, { header: Header; width: number }> = {
  0xd0: { header: 'string', width: 1 },
  0xd1: { header: 'string', width: 2 },
  0xd2: { header: 'string', width: 4 },
  0xcc: { header: 'bytes', width: 1 },
  0xcd: { header: 'bytes', width: 2 },
  0xce: { header: 'bytes', width: 4 },
  0xd4: { header: 'list', width: 1 },
  0xd5: { header: 'list', width: 2 },
  0xd6: { header: 'list', width: 4 },
  0xd8: { header: 'map', width: 1 },
  0xd9: { header: 'map', width: 2 },
  0xda: { header: 'map', width: 4 },
};

/** Bytes that follow a fixed-size scalar's marker (float, 8- to 64-bit integers). */
const SCALAR_TAIL: Record<number, number> = { 0xc1: 8, 0xc8: 1, 0xc9: 2, 0xca: 4, 0xcb: 8 };

export class PackstreamMeter {
  /** The measured size so far. */
  bytes = 0;
  /** The deepest nesting seen (a top-level list is depth 1). */
  maxDepth = 0;
  /** Set when a byte is not valid PackStream; measuring stops there. */
  invalid = false;
  /** Remaining elements of each open container, innermost last. */
  private readonly open: number[] = [];
  private skip = 0;
  private header: { kind: Header; need: number; value: number } | null = null;
  private structFields = -1;
  private started = false;

  /** True once at least one top-level value was read and every value opened has ended. */
  get complete(): boolean {
    return this.started && this.open.length === 0 && this.skip === 0 && this.header === null && this.structFields < 0;
  }

  /** Reads `data[start, end)`. */
  feed(data: Uint8Array, start = 0, end = data.length): void {
    let i = start;
    while (i < end && !this.invalid) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, end - i);
        this.skip -= n;
        i += n;
        if (this.skip === 0) this.valueEnded();
      } else if (this.header) {
        this.header.value = this.header.value * 256 + (data[i++] as number);
        if (--this.header.need === 0) this.headerRead();
      } else if (this.structFields >= 0) {
        i++; // the struct's signature byte
        const fields = this.structFields;
        this.structFields = -1;
        this.openContainer(fields);
      } else {
        this.marker(data[i++] as number);
      }
    }
  }

  private marker(m: number): void {
    if (this.open.length === 0) {
      this.started = true;
      this.bytes += VALUE_BYTES;
    }
    const high = m & 0xf0;
    if (m <= 0x7f || m >= 0xf0 || m === 0xc0 || m === 0xc2 || m === 0xc3) this.valueEnded();
    else if (m in SCALAR_TAIL) this.skip = SCALAR_TAIL[m] as number;
    else if (high === 0x80) this.stringOfLength(m & 0x0f);
    else if (high === 0x90) this.openContainer(m & 0x0f);
    else if (high === 0xa0) this.openContainer(2 * (m & 0x0f));
    else if (high === 0xb0) this.structFields = m & 0x0f;
    else if (m in SIZED) {
      const { header, width } = SIZED[m] as { header: Header; width: number };
      this.header = { kind: header, need: width, value: 0 };
    } else this.invalid = true;
  }

  private headerRead(): void {
    const { kind, value } = this.header as { kind: Header; value: number };
    this.header = null;
    if (kind === 'list') this.openContainer(value);
    else if (kind === 'map') this.openContainer(2 * value);
    else this.stringOfLength(value);
  }

  private stringOfLength(length: number): void {
    this.bytes += length;
    if (length === 0) this.valueEnded();
    else this.skip = length;
  }

  private openContainer(items: number): void {
    this.bytes += VALUE_BYTES * items;
    if (items === 0) {
      this.maxDepth = Math.max(this.maxDepth, this.open.length + 1);
      this.valueEnded();
      return;
    }
    this.open.push(items);
    this.maxDepth = Math.max(this.maxDepth, this.open.length);
  }

  /** A value ended: count it off its container, and close every container it completes. */
  private valueEnded(): void {
    while (this.open.length > 0) {
      const last = this.open.length - 1;
      this.open[last] = (this.open[last] as number) - 1;
      if ((this.open[last] as number) > 0) return;
      this.open.pop();
    }
  }
}
