/**
 * The wire format between the harness and a sandboxed worker (`py/worker.py`).
 * Request: 8 hex digits (header length), the JSON header, then each phase's JSON payload in order.
 * Reply: `P<i>` lines as phases start, one JSON line (the phase envelopes and output lengths), then
 * each phase's output: JSON lines the phase process wrote, back to back.
 */
import type { ResourceLimits } from '../../../core/sandbox/limits.ts';

/** Most bytes of events a phase may report to the harness by default (8 MiB); beyond that it is stopped. */
export const MAX_REPORT_BYTES = 8 * 1024 * 1024;

/** Largest payload the worker accepts for one phase (py/worker.py MAX_PAYLOAD). */
export const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

/** One phase of a request: a kind of job run in a fresh process forked from the worker. */
export interface PhaseSpec {
  /** Unique within the request; later phases find earlier ones' folders by it. */
  name: string;
  /** exec, env.describe, ds.run, ds.compare, bcb.run, bcb.observe */
  kind: string;
  payload: unknown;
  limits: ResourceLimits;
  deadlineMs: number;
  /** Relay the tails of stdout/stderr (candidate-facing phases only). */
  capture?: boolean;
  /** Most bytes the phase may report (default MAX_REPORT_BYTES); beyond that it is killed. */
  maxOutputBytes?: number;
}

/** What one event line of a phase looks like; the fields depend on `event`. */
export type PhaseEvent = { event: string } & Record<string, unknown>;

/** How a phase ended, as the worker saw it, and what it reported. */
export interface PhaseResult {
  name: string;
  exitCode: number | null;
  /** Terminating signal number, or null. */
  signal: number | null;
  /** Killed at its wall-clock deadline. */
  deadline: boolean;
  /** Killed for reporting more than its output cap. */
  outputCap: boolean;
  /** Bytes the phase wrote to stdout and stderr (files capped at its file-size limit). */
  stdoutBytes?: number;
  stderrBytes?: number;
  /** Which of stdout and stderr reached the file-size limit (the phase was ended then), or null. */
  printCap?: 'stdout' | 'stderr' | null;
  wallMs: number;
  cpuMs: number;
  maxRssKb: number;
  stdoutTail?: string;
  stderrTail?: string;
  events: PhaseEvent[];
}

/** Encodes a request for the worker. */
export function encodeRequest(id: number, phases: readonly PhaseSpec[]): Buffer {
  const payloads = phases.map((p) => Buffer.from(JSON.stringify(p.payload ?? {}), 'utf8'));
  payloads.forEach((payload, i) => {
    // The worker would refuse it and die; callers cap what they send (e.g. maxProgramBytes) well below.
    if (payload.length > MAX_PAYLOAD_BYTES)
      throw new Error(
        `phase "${phases[i]?.name}" payload of ${payload.length} bytes is over the worker's ${MAX_PAYLOAD_BYTES}-byte limit`,
      );
  });
  const header = {
    id,
    phases: phases.map((p, i) => ({
      name: p.name,
      kind: p.kind,
      payload: (payloads[i] as Buffer).length,
      limits: p.limits,
      deadlineMs: p.deadlineMs,
      capture: p.capture ?? false,
      maxOutputBytes: p.maxOutputBytes ?? MAX_REPORT_BYTES,
    })),
  };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  if (head.length > 0xffffffff) throw new Error('request header too large');
  return Buffer.concat([Buffer.from(head.length.toString(16).padStart(8, '0'), 'ascii'), head, ...payloads]);
}

/** Splits a phase's output into events; a line that is not JSON becomes a `garbled` event. */
export function parseEvents(output: Buffer): PhaseEvent[] {
  const events: PhaseEvent[] = [];
  for (const line of output.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (
        value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        typeof (value as { event?: unknown }).event === 'string'
      ) {
        events.push(value as PhaseEvent);
      } else {
        events.push({ event: 'garbled', text: line.slice(0, 500) });
      }
    } catch {
      events.push({ event: 'garbled', text: line.slice(0, 500) });
    }
  }
  return events;
}

interface ReplyHeader {
  id: number;
  phases: Omit<PhaseResult, 'events'>[];
  lengths: number[];
}

export type ReplyItem =
  | { type: 'progress'; phase: number }
  | { type: 'reply'; id: number; phases: PhaseResult[] }
  | { type: 'ready'; info: Record<string, unknown> };

/** Incremental parser of the worker's stdout. */
export class ReplyParser {
  private buffer: Buffer = Buffer.alloc(0);
  private header: ReplyHeader | null = null;
  private ready = false;

  /** Feeds bytes; returns every complete item they finish. Throws on a malformed stream. */
  push(chunk: Buffer): ReplyItem[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const items: ReplyItem[] = [];
    for (;;) {
      if (this.header) {
        const total = this.header.lengths.reduce((a, b) => a + b, 0);
        if (this.buffer.length < total) return items;
        const phases: PhaseResult[] = [];
        let offset = 0;
        this.header.phases.forEach((envelope, i) => {
          const length = this.header?.lengths[i] ?? 0;
          phases.push({ ...envelope, events: parseEvents(this.buffer.subarray(offset, offset + length)) });
          offset += length;
        });
        items.push({ type: 'reply', id: this.header.id, phases });
        this.buffer = this.buffer.subarray(total);
        this.header = null;
        continue;
      }
      const newline = this.buffer.indexOf(0x0a);
      if (newline < 0) {
        if (this.buffer.length > 1 << 20) throw new Error('worker reply line too long');
        return items;
      }
      const line = this.buffer.subarray(0, newline).toString('utf8');
      this.buffer = this.buffer.subarray(newline + 1);
      if (!this.ready) {
        this.ready = true;
        const info = JSON.parse(line) as Record<string, unknown>;
        if (info.ready !== true) throw new Error(`the worker did not start: ${line.slice(0, 300)}`);
        items.push({ type: 'ready', info });
      } else if (/^P\d+$/.test(line)) {
        items.push({ type: 'progress', phase: Number(line.slice(1)) });
      } else {
        const header = JSON.parse(line) as ReplyHeader;
        if (!Array.isArray(header.phases) || !Array.isArray(header.lengths))
          throw new Error(`malformed worker reply: ${line.slice(0, 300)}`);
        this.header = header;
      }
    }
  }
}
