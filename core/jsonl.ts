/**
 * JSON Lines files read and written synchronously: one value per line, appended with one write
 * per line, read back in chunks with each line's byte offset so a reader can come back for one
 * line later without holding the file. A last line with no newline is an interrupted write.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/** Calls `visit` for every line (without its newline); `complete` is false for a last line that has no newline. */
export function forEachLine(
  file: string,
  visit: (line: string, offset: number, bytes: number, complete: boolean) => void,
): void {
  const fd = openSync(file, 'r');
  try {
    let pending = Buffer.alloc(0);
    let pendingOffset = 0;
    let position = 0;
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK, position);
      if (read === 0) break;
      position += read;
      let data = pending.length > 0 ? Buffer.concat([pending, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let start = 0;
      for (let end = data.indexOf(NEWLINE, start); end !== -1; end = data.indexOf(NEWLINE, start)) {
        if (end > start) visit(data.toString('utf8', start, end), pendingOffset + start, end - start, true);
        start = end + 1;
      }
      pendingOffset += start;
      data = data.subarray(start);
      pending = Buffer.from(data);
    }
    if (pending.length > 0) visit(pending.toString('utf8'), pendingOffset, pending.length, false);
  } finally {
    closeSync(fd);
  }
}

/** Reads `bytes` bytes at `offset` of a file as UTF-8. */
export function readSlice(file: string, offset: number, bytes: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(bytes);
    let done = 0;
    while (done < bytes) {
      const read = readSync(fd, buffer, done, bytes - done, offset + done);
      if (read === 0) throw new Error(`${file}: ends before byte ${offset + bytes}`);
      done += read;
    }
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** An append-only JSON Lines file owned by one writer; each `append` returns where its line starts. */
export class LineAppender {
  private fd: number | undefined;
  private size = 0;

  constructor(readonly file: string) {}

  /** Appends one value as one line; returns its byte offset and length (without the newline). */
  append(value: unknown): { offset: number; bytes: number } {
    if (this.fd === undefined) {
      this.fd = openSync(this.file, 'a');
      this.size = fstatSync(this.fd).size;
    }
    const line = Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
    let written = 0;
    while (written < line.length) written += writeSync(this.fd, line, written, line.length - written);
    const offset = this.size;
    this.size += line.length;
    return { offset, bytes: line.length - 1 };
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
