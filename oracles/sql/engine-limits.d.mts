/** Types of engine-limits.mjs (plain JS so the SQLite child process can load it without TypeScript tooling). */
import type { SqlValue } from './values.ts';

export const VALUE_OVERHEAD: number;
export const BLOB_OVERHEAD: number;
/** Estimated bytes of one value: 16 for each, plus the UTF-8 length of text, plus a blob's bytes and 256. */
export function valueBytes(value: SqlValue): number;
/** `134217728` → `128 MiB`. */
export function formatBytes(bytes: number): string;
export function tooManyRows(maxRows: number): string;
export function tooManyBytes(maxBytes: number, rows: number): string;
export function tooLongText(bytes: number, maxBytes: number): string;
/** Why a statement did not prepare: `too-complex` when an engine limit refused it, else `syntax`. */
export function prepareFailureKind(error: unknown): 'too-complex' | 'syntax';
/** Why a prepared statement failed while stepping. */
export function stepFailureKind(error: unknown): 'too-large' | 'too-complex' | 'runtime';
