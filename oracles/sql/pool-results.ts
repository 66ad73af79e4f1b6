/** What the SQLite pool's requests give back: results and failures, as they travel from a child and as callers see them. */
import { tooLongText } from './engine-limits.mjs';
import type { QueryLimits } from './limits.ts';
import { flatRows } from './result-equality.mjs';
import type { SqlRow } from './values.ts';

export type ExecFailureKind = 'syntax' | 'runtime' | 'timeout' | 'unsafe' | 'too-complex' | 'too-large';

export type ExecResult =
  | {
      ok: true;
      columns: string[];
      rows: SqlRow[];
      ms: number;
      /** Estimated memory of the result (see limits.ts). */ bytes: number;
    }
  | { ok: false; kind: ExecFailureKind; message: string; ms: number };

export type ExecFailure = Extract<ExecResult, { ok: false }>;

/** A result whose rows were compared where they were read: their count, and the rows only when asked for. */
export type CountedResult =
  { ok: true; columns: string[]; rowCount: number; rows?: SqlRow[]; ms: number; bytes: number } | ExecFailure;

export type Outcome = { reply: Record<string, unknown> } | { timeout: true } | { crash: string; kind: ExecFailureKind };

/** A result as the child sends it: values flat, in chunks of whole rows. */
export type WireResult =
  | ExecFailure
  | { ok: true; columns: string[]; width: number; chunks?: SqlRow[]; rowCount: number; bytes: number; ms: number };

/** SQL text over the cap never goes to a child: it is refused as too complex. */
export function textRefusal(sql: string, limits: QueryLimits): ExecFailure | null {
  if (sql.length * 3 <= limits.maxSqlBytes) return null; // UTF-8 takes at most 3 bytes per UTF-16 unit
  const bytes = Buffer.byteLength(sql, 'utf8');
  return bytes > limits.maxSqlBytes
    ? { ok: false, kind: 'too-complex', message: tooLongText(bytes, limits.maxSqlBytes), ms: 0 }
    : null;
}

export function decode(result: WireResult, tempFileMb: number): ExecResult {
  const counted = decodeCounted(result, tempFileMb);
  if (!counted.ok) return counted;
  const { columns, rows, ms, bytes } = counted;
  if (!rows) throw new Error('the SQLite process sent a result without its rows');
  return { ok: true, columns, rows, ms, bytes };
}

/** A result as the child sent it, its rows decoded when it sent them. */
export function decodeCounted(result: WireResult, tempFileMb: number): CountedResult {
  if (!result.ok) {
    // On read-only databases SQLite writes only temporary files (sorts, temporary b-trees): a failed write hit their limit.
    const full = result.kind === 'too-large' && /^(disk I\/O error|database or disk is full)/.test(result.message);
    return full
      ? {
          ...result,
          message: `${result.message}: the query needed a temporary file over ${tempFileMb} MiB (the limit)`,
        }
      : result;
  }
  const { columns, width, chunks, rowCount, bytes, ms } = result;
  if (!chunks) return { ok: true, columns, rowCount, ms, bytes };
  return { ok: true, columns, rowCount, rows: flatRows(width, chunks, rowCount), ms, bytes };
}

/**
 * The failure of a statement whose result a request's outcome does not carry: the deadline, the
 * crash, or a reply without it.
 */
export function failure(outcome: Outcome, deadlineMs: number): ExecFailure {
  if ('reply' in outcome) return { ok: false, kind: 'runtime', message: 'the SQLite process sent no result', ms: 0 };
  if ('timeout' in outcome)
    return {
      ok: false,
      kind: 'timeout',
      message: `the query did not finish within ${formatSeconds(deadlineMs)}`,
      ms: deadlineMs,
    };
  return { ok: false, kind: outcome.kind, message: outcome.crash, ms: 0 };
}

export function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
