/**
 * The Bolt stream from Neo4j to the driver, read message by message without decoding: the
 * handshake reply (also Bolt 5.7's manifest form), then chunked messages (a 2-byte size, the bytes,
 * a 0x0000 end marker). RECORD messages are measured with the PackStream meter; once the records
 * of one batch (those between two summary messages) pass the byte cap, or a value nests deeper than
 * allowed, the stream is stopped before the offending message reaches the driver. Everything else
 * passes unchanged, one whole message at a time. Pure: the proxy feeds it socket data.
 */
import { PackstreamMeter } from './packstream-meter.ts';

export interface StreamLimits {
  /** Largest measured size of the records of one batch (see packstream-meter.ts). */
  maxBytes: number;
  /** Deepest nesting of lists and maps inside a row's values. */
  maxNesting: number;
}

export interface StreamStep {
  /** Bytes to pass on to the driver, in order. */
  forward: Buffer[];
  /** Set when a limit was passed: the stream must stop here (nothing after it is forwarded). */
  violation?: string;
}

const RECORD_SIGNATURE = 0x71;
const MANIFEST_V1 = [0x00, 0x00, 0x01, 0xff];
/** A record is a struct holding a list: values nested in a row start at depth 2. */
const RECORD_ENVELOPE_DEPTH = 2;

type Phase = 'version' | 'manifest-count' | 'manifest-versions' | 'manifest-capabilities' | 'messages';

interface Message {
  raw: Buffer[];
  head: number[];
  /** Payload read before the signature was known. */
  early: Buffer[];
  meter: PackstreamMeter | null;
  kind: 'record' | 'other' | 'unknown';
}

export class ServerStreamGuard {
  private phase: Phase = 'version';
  private version: number[] = [];
  private varint = { value: 0, shift: 0 };
  private manifestBytes = 0;
  private chunkHeader: number[] = [];
  private chunkLeft = 0;
  private message: Message | null = null;
  private batchBytes = 0;
  private stopped: string | undefined;

  constructor(private readonly limits: StreamLimits) {}

  /** Reads the next piece of the stream. */
  push(data: Buffer): StreamStep {
    const forward: Buffer[] = [];
    if (this.stopped) return { forward, violation: this.stopped };
    let i = 0;
    while (i < data.length) {
      if (this.phase !== 'messages') {
        const end = this.handshake(data, i);
        forward.push(data.subarray(i, end));
        i = end;
        continue;
      }
      if (this.chunkLeft === 0) {
        this.chunkHeader.push(data[i++] as number);
        if (this.chunkHeader.length === 2) this.chunkStarted(forward);
        continue;
      }
      const n = Math.min(this.chunkLeft, data.length - i);
      const piece = data.subarray(i, i + n);
      i += n;
      this.chunkLeft -= n;
      const message = this.message as Message;
      message.raw.push(piece);
      this.payload(message, piece);
      if (this.stopped) return { forward, violation: this.stopped };
    }
    return { forward };
  }

  /** Consumes handshake bytes from `data[i…]`; returns where they end. */
  private handshake(data: Buffer, start: number): number {
    let i = start;
    while (i < data.length && this.phase !== 'messages') {
      const byte = data[i++] as number;
      if (this.phase === 'version') {
        this.version.push(byte);
        if (this.version.length === 4)
          this.phase = this.version.every((b, k) => b === MANIFEST_V1[k]) ? 'manifest-count' : 'messages';
      } else if (this.phase === 'manifest-versions') {
        if (--this.manifestBytes === 0) this.phase = 'manifest-capabilities';
      } else if (this.readVarint(byte)) {
        if (this.phase === 'manifest-count') {
          this.manifestBytes = 4 * this.varint.value;
          this.phase = this.manifestBytes > 0 ? 'manifest-versions' : 'manifest-capabilities';
        } else this.phase = 'messages';
        this.varint = { value: 0, shift: 0 };
      }
    }
    return i;
  }

  /** Adds a byte of a base-128 varint; true when it was the last one. */
  private readVarint(byte: number): boolean {
    this.varint.value += (byte & 0x7f) * 2 ** this.varint.shift;
    this.varint.shift += 7;
    return (byte & 0x80) === 0;
  }

  private chunkStarted(forward: Buffer[]): void {
    const header = Buffer.from(this.chunkHeader);
    const size = header.readUInt16BE(0);
    this.chunkHeader = [];
    if (size > 0) {
      this.message ??= { raw: [], head: [], early: [], meter: null, kind: 'unknown' };
      this.message.raw.push(header);
      this.chunkLeft = size;
      return;
    }
    // 0x0000 ends the message in progress, or is a keep-alive between messages.
    const message = this.message;
    this.message = null;
    if (message) {
      forward.push(...message.raw);
      if (message.kind === 'record' && message.meter) this.batchBytes += message.meter.bytes;
      else this.batchBytes = 0;
    }
    forward.push(header);
  }

  private payload(message: Message, piece: Buffer): void {
    if (message.kind === 'unknown') {
      for (const byte of piece) {
        if (message.head.length === 2) break;
        message.head.push(byte);
      }
      message.early.push(piece);
      if (message.head.length < 2) return;
      message.kind =
        message.head[1] === RECORD_SIGNATURE && (message.head[0] as number) >> 4 === 0xb ? 'record' : 'other';
      if (message.kind === 'record') {
        message.meter = new PackstreamMeter();
        for (const early of message.early) this.measure(message.meter, early);
      }
      message.early = [];
      return;
    }
    if (message.meter) this.measure(message.meter, piece);
  }

  private measure(meter: PackstreamMeter, piece: Buffer): void {
    meter.feed(piece);
    if (this.batchBytes + meter.bytes > this.limits.maxBytes) {
      this.stopped = `the result is larger than ${this.limits.maxBytes.toLocaleString('en-US')} bytes (counting 8 bytes per value plus the bytes of strings)`;
    } else if (meter.maxDepth - RECORD_ENVELOPE_DEPTH > this.limits.maxNesting) {
      this.stopped = `the result nests lists or maps more than ${this.limits.maxNesting} levels deep`;
    }
  }
}

/** A Bolt FAILURE message {code, message}, chunked, as the driver expects one. */
export function failureMessage(code: string, message: string): Buffer {
  const string = (text: string): Buffer => {
    const bytes = Buffer.from(text, 'utf8');
    const header =
      bytes.length < 16
        ? [0x80 | bytes.length]
        : bytes.length < 256
          ? [0xd0, bytes.length]
          : [0xd1, bytes.length >> 8, bytes.length & 0xff];
    return Buffer.concat([Buffer.from(header), bytes]);
  };
  const text = message.length > 4000 ? `${message.slice(0, 4000)}…` : message;
  const payload = Buffer.concat([
    Buffer.from([0xb1, 0x7f, 0xa2]),
    string('code'),
    string(code),
    string('message'),
    string(text),
  ]);
  const size = Buffer.alloc(2);
  size.writeUInt16BE(payload.length);
  return Buffer.concat([size, payload, Buffer.from([0, 0])]);
}
