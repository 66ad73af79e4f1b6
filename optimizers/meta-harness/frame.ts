/**
 * The host's framing of a child's output: newline-delimited lines cut from raw byte chunks, each
 * chunk scanned once (the pending partial line is kept as a list of chunks and never re-scanned),
 * with a cap on one line and on all bytes read in an episode; and a linear check of a JSON text's
 * nesting depth that runs before `JSON.parse`, so no message can be deep enough to overflow a
 * recursive serializer later. Pure: no streams, no timers.
 */

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

const NEWLINE = 0x0a;

/** Cuts a byte stream into lines under FrameLimits. */
export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;
  private broken: string | undefined;

  constructor(private readonly limits: FrameLimits) {}

  /** The lines completed by `chunk`; after an overflow every later call yields nothing. */
  push(chunk: Buffer): Framed {
    if (this.broken) return { lines: [] };
    const lines: string[] = [];
    this.total += chunk.length;
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf(NEWLINE, start)) >= 0) {
      const length = this.pendingBytes + newline - start;
      if (length > this.limits.maxLineBytes) return this.overflow(lines, this.lineTooLong());
      const piece = chunk.subarray(start, newline);
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece], length);
      lines.push(line.toString('utf8'));
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.limits.maxLineBytes) return this.overflow(lines, this.lineTooLong());
      this.pending.push(chunk.subarray(start));
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
    this.broken = reason;
    this.pending = [];
    this.pendingBytes = 0;
    return { lines, overflow: reason };
  }
}

/**
 * Whether a JSON text nests arrays and objects more than `maxDepth` levels deep, by one pass over
 * its characters that skips string contents. Linear in the text; for text that is not JSON the
 * answer is about its brackets, and JSON.parse then refuses it.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
