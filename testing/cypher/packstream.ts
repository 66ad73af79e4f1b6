/**
 * A small PackStream encoder for tests of the Bolt-level meters: every marker width (tiny, 8-, 16-
 * and 32-bit headers), so a meter can be checked against values whose size and depth are known.
 */

export type PackValue =
  | { t: 'null' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: bigint; width: 0 | 1 | 2 | 4 | 8 }
  | { t: 'float'; v: number }
  | { t: 'string'; v: string; width: 0 | 1 | 2 | 4 }
  | { t: 'bytes'; v: Uint8Array; width: 1 | 2 | 4 }
  | { t: 'list'; v: PackValue[]; width: 0 | 1 | 2 | 4 }
  | { t: 'map'; v: [string, PackValue][]; width: 0 | 1 | 2 | 4 }
  | { t: 'struct'; signature: number; v: PackValue[] };

const be = (n: number, width: number): number[] =>
  Array.from({ length: width }, (_, i) => Math.floor(n / 256 ** (width - 1 - i)) % 256);

function sized(tiny: number, markers: [number, number, number], length: number, width: 0 | 1 | 2 | 4): number[] {
  if (width === 0 && length < 16) return [tiny | length];
  const w = width === 0 ? (length < 256 ? 1 : length < 65536 ? 2 : 4) : width;
  return [markers[w === 1 ? 0 : w === 2 ? 1 : 2], ...be(length, w)];
}

/** The value's PackStream bytes. */
export function encode(value: PackValue): number[] {
  switch (value.t) {
    case 'null':
      return [0xc0];
    case 'bool':
      return [value.v ? 0xc3 : 0xc2];
    case 'int': {
      if (value.width === 0) return [Number(BigInt.asUintN(8, value.v))];
      const marker = { 1: 0xc8, 2: 0xc9, 4: 0xca, 8: 0xcb }[value.width];
      const bytes: number[] = [];
      let x = BigInt.asUintN(value.width * 8, value.v);
      for (let i = 0; i < value.width; i++) {
        bytes.unshift(Number(x & 0xffn));
        x >>= 8n;
      }
      return [marker, ...bytes];
    }
    case 'float': {
      const b = Buffer.alloc(8);
      b.writeDoubleBE(value.v);
      return [0xc1, ...b];
    }
    case 'string': {
      const bytes = [...Buffer.from(value.v, 'utf8')];
      return [...sized(0x80, [0xd0, 0xd1, 0xd2], bytes.length, value.width), ...bytes];
    }
    case 'bytes':
      return [...sized(0, [0xcc, 0xcd, 0xce], value.v.length, value.width), ...value.v];
    case 'list':
      return [...sized(0x90, [0xd4, 0xd5, 0xd6], value.v.length, value.width), ...value.v.flatMap(encode)];
    case 'map':
      return [
        ...sized(0xa0, [0xd8, 0xd9, 0xda], value.v.length, value.width),
        ...value.v.flatMap(([k, v]) => [...encode({ t: 'string', v: k, width: 0 }), ...encode(v)]),
      ];
    case 'struct':
      return [0xb0 | value.v.length, value.signature, ...value.v.flatMap(encode)];
  }
}

/** What the meter should report: 8 bytes per value plus string and byte-array lengths. */
export function expectedSize(value: PackValue): number {
  switch (value.t) {
    case 'string':
      return 8 + Buffer.byteLength(value.v, 'utf8');
    case 'bytes':
      return 8 + value.v.length;
    case 'list':
    case 'struct':
      return 8 + value.v.reduce((n, x) => n + expectedSize(x), 0);
    case 'map':
      return 8 + value.v.reduce((n, [k, v]) => n + 8 + Buffer.byteLength(k, 'utf8') + expectedSize(v), 0);
    default:
      return 8;
  }
}

/** Nesting depth: 0 for a scalar, 1 for a flat list. */
export function expectedDepth(value: PackValue): number {
  if (value.t === 'list' || value.t === 'struct') return 1 + Math.max(0, ...value.v.map(expectedDepth));
  if (value.t === 'map') return 1 + Math.max(0, ...value.v.map(([, v]) => expectedDepth(v)));
  return 0;
}

/** A Bolt message: the payload cut into chunks of at most `chunk` bytes, then the 0x0000 end marker. */
export function chunked(payload: number[], chunk = 65535): Buffer {
  const parts: number[] = [];
  for (let i = 0; i < payload.length; i += chunk) {
    const piece = payload.slice(i, i + chunk);
    parts.push(...be(piece.length, 2), ...piece);
  }
  return Buffer.from([...parts, 0, 0]);
}
