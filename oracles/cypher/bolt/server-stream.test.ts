/** The Bolt server-stream guard on synthetic streams: records pass unchanged under the caps and stop at a message boundary over them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunked, encode, type PackValue } from '../../../testing/cypher/packstream.ts';
import { failureMessage, ServerStreamGuard, type StreamLimits } from './server-stream.ts';

const VERSION = [0x00, 0x00, 0x04, 0x05];
const str = (v: string): PackValue => ({ t: 'string', v, width: 0 });
const int = (v: number): PackValue => ({ t: 'int', v: BigInt(v), width: 0 });
const record = (...cells: PackValue[]) =>
  chunked(encode({ t: 'struct', signature: 0x71, v: [{ t: 'list', v: cells, width: 0 }] }), 7);
const success = () =>
  chunked(
    encode({ t: 'struct', signature: 0x70, v: [{ t: 'map', v: [['has_more', { t: 'bool', v: true }]], width: 0 }] }),
  );

/** Runs a stream through a guard in pieces cut at `cuts`; returns what was forwarded and the violation. */
function run(stream: Buffer, limits: StreamLimits, cuts: number[] = []): { out: Buffer; violation?: string } {
  const guard = new ServerStreamGuard(limits);
  const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const to of [...points, stream.length]) {
    const step = guard.push(stream.subarray(from, to));
    out.push(...step.forward);
    if (step.violation) return { out: Buffer.concat(out), violation: step.violation };
    from = to;
  }
  return { out: Buffer.concat(out) };
}

const wide = { maxBytes: 1e9, maxNesting: 64 };

describe('ServerStreamGuard', () => {
  it('passes a stream under the caps unchanged, however it is split', () => {
    const stream = Buffer.concat([
      Buffer.from(VERSION),
      success(),
      record(str('Pavotaes Airlines'), int(3)),
      record(str('x'.repeat(300)), int(-5)),
      Buffer.from([0, 0]),
      success(),
    ]);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (cuts) => {
        const { out, violation } = run(stream, wide, cuts);
        expect(violation).toBeUndefined();
        expect(out.equals(stream)).toBe(true);
      }),
    );
  });

  it('stops before the record that passes the byte cap: only whole earlier messages reach the driver', () => {
    // Each record: struct + list + one string of 100 bytes = 8 + 8 + 8 + 100 = 124 bytes.
    const rows = Array.from({ length: 5 }, () => record(str('y'.repeat(100))));
    const stream = Buffer.concat([Buffer.from(VERSION), success(), ...rows, success()]);
    const head = Buffer.concat([Buffer.from(VERSION), success(), rows[0] as Buffer, rows[1] as Buffer]);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (cuts) => {
        const { out, violation } = run(stream, { maxBytes: 3 * 124 - 1, maxNesting: 64 }, cuts);
        expect(violation).toMatch(/^the result is larger than 371 bytes/);
        expect(out.equals(head.subarray(0, out.length))).toBe(true);
        // Everything before the third record, and nothing of it.
        expect(out.length).toBeLessThanOrEqual(head.length);
        expect(out.length).toBeGreaterThanOrEqual(head.length - (rows[1] as Buffer).length);
      }),
    );
    expect(run(stream, { maxBytes: 3 * 124, maxNesting: 64 }).violation).toMatch(/larger than 372 bytes/);
    expect(run(stream, { maxBytes: 5 * 124, maxNesting: 64 }).violation).toBeUndefined();
  });

  it('counts each batch of records apart: a summary message starts a new count', () => {
    const batch = [record(str('z'.repeat(100))), record(str('z'.repeat(100)))];
    const stream = Buffer.concat([Buffer.from(VERSION), ...batch, success(), ...batch, success()]);
    expect(run(stream, { maxBytes: 2 * 124, maxNesting: 64 }).violation).toBeUndefined();
    expect(run(stream, { maxBytes: 2 * 124 - 1, maxNesting: 64 }).violation).toMatch(/larger than/);
  });

  it('refuses a huge list or string from its header on, without waiting for its bytes', () => {
    // A record whose one cell is LIST_32 of 10^7 elements: only the first chunk arrives.
    const partial = Buffer.from([0x00, 0x08, 0xb1, 0x71, 0x91, 0xd6, 0x00, 0x98, 0x96, 0x80]);
    const { out, violation } = run(Buffer.concat([Buffer.from(VERSION), partial]), {
      maxBytes: 16 * 2 ** 20,
      maxNesting: 64,
    });
    expect(violation).toMatch(/larger than 16,777,216 bytes/);
    expect(out.equals(Buffer.from(VERSION))).toBe(true);
  });

  it('refuses values nested deeper than the limit', () => {
    let deep: PackValue = int(1);
    for (let i = 0; i < 5; i++) deep = { t: 'list', v: [deep], width: 0 };
    const stream = Buffer.concat([Buffer.from(VERSION), record(deep), success()]);
    expect(run(stream, { maxBytes: 1e9, maxNesting: 5 }).violation).toBeUndefined();
    expect(run(stream, { maxBytes: 1e9, maxNesting: 4 }).violation).toBe(
      'the result nests lists or maps more than 4 levels deep',
    );
  });

  it('reads the Bolt 5.7 manifest handshake before the messages', () => {
    const manifest = [0x00, 0x00, 0x01, 0xff, 0x02, 0x00, 0x08, 0x08, 0x05, 0x00, 0x00, 0x00, 0x06, 0x81, 0x01];
    const rows = [record(str('w'.repeat(100))), record(str('w'.repeat(100)))];
    const stream = Buffer.concat([Buffer.from(manifest), ...rows, success()]);
    expect(run(stream, wide).out.equals(stream)).toBe(true);
    expect(run(stream, { maxBytes: 124, maxNesting: 64 }).violation).toMatch(/larger than 124 bytes/);
  });

  it('builds a FAILURE message in one chunk: struct 0x7F with the code and the message', () => {
    const failure = failureMessage('Witness.ClientError.Result.TooLarge', 'too big');
    const payload = encode({
      t: 'struct',
      signature: 0x7f,
      v: [
        {
          t: 'map',
          v: [
            ['code', str('Witness.ClientError.Result.TooLarge')],
            ['message', str('too big')],
          ],
          width: 0,
        },
      ],
    });
    expect(failure.equals(chunked(payload))).toBe(true);
  });
});
