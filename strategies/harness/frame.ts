/**
 * The host's framing of a child's output: newline-delimited lines cut from raw byte chunks, each
 * chunk decoded and scanned once (the pending partial line is kept as a list of pieces and never
 * re-scanned), with a cap on one line and on all bytes read in an episode. Pure: no streams, no
 * timers.
 */
import { StringDecoder } from 'node:string_decoder';

export interface FrameLimits {
  /** Longest line, in bytes, newline excluded. */
  maxLineBytes: number;
  /** Bytes read in all, newlines included. */
  maxTotalBytes: number;
}

/** What one chunk yielded: the complete lines in it, and the cap it broke (then no more lines come). */
export interface Framed {
  lines: string[];
  overflow?: string;
}

/** Whether `pendingBytes` and `piece` fit in `cap` bytes (UTF-8 takes at most 3 bytes per UTF-16 unit: the exact count is needed only near the cap). */
const fits = (pendingBytes: number, piece: string, cap: number) =>
  pendingBytes + piece.length * 3 <= cap || pendingBytes + Buffer.byteLength(piece) <= cap;

/** Cuts a byte stream into lines under FrameLimits. */
export class LineFramer {
  private readonly decoder = new StringDecoder('utf8');
  private pending: string[] = [];
  private pendingBytes = 0;
  private total = 0;
  private broken = false;

  constructor(private readonly limits: FrameLimits) {}

  /** The lines completed by `chunk`; after an overflow every later call yields nothing. */
  push(chunk: Buffer): Framed {
    if (this.broken) return { lines: [] };
    const cap = this.limits.maxLineBytes;
    const lines: string[] = [];
    this.total += chunk.length;
    // Decoded once (a character cut between chunks waits in the decoder), each unit scanned once.
    const text = this.decoder.write(chunk);
    let start = 0;
    let newline: number;
    while ((newline = text.indexOf('\n', start)) >= 0) {
      const piece = text.slice(start, newline);
      if (!fits(this.pendingBytes, piece, cap)) return this.overflow(lines, this.lineTooLong());
      lines.push(this.pending.length === 0 ? piece : this.pending.join('') + piece);
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
    }
    if (start < text.length) {
      const piece = text.slice(start);
      this.pendingBytes += Buffer.byteLength(piece);
      if (this.pendingBytes > cap) return this.overflow(lines, this.lineTooLong());
      this.pending.push(piece);
    }
    // Lines already complete in this chunk are kept: they were sent within the cap.
    if (this.total > this.limits.maxTotalBytes)
      return this.overflow(lines, `more than ${this.limits.maxTotalBytes} bytes of output in one episode`);
    return { lines };
  }

  private lineTooLong(): string {
    return `a message longer than ${this.limits.maxLineBytes} bytes`;
  }

  private overflow(lines: string[], reason: string): Framed {
    this.broken = true;
    this.pending = [];
    this.pendingBytes = 0;
    return { lines, overflow: reason };
  }
}
