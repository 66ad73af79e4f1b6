/** The results file: summary rows plus every trajectory, written atomically and read back with checks. */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Trajectory } from '../core/types.ts';
import { type Ledger, ledgerProblem } from './ledger.ts';
import type { SummaryRow } from './summary.ts';
import { trajectoryProblem } from './validate.ts';

export const RESULTS_SCHEMA = 'witness.results';
export const RESULTS_VERSION = 1;

export interface ResultsFile {
  schema: typeof RESULTS_SCHEMA;
  version: typeof RESULTS_VERSION;
  /** The run id of the trajectories; several ids are joined with "+" in sorted order. */
  runId: string;
  createdAt: string;
  summary: SummaryRow[];
  /** Planned episodes against recorded ones (reports/ledger.ts); absent in files written by hand or before it was kept. */
  ledger?: Ledger;
  trajectories: Trajectory[];
}

/** The run id a results file carries for these trajectories ("" when there are none). */
export function combinedRunId(trajectories: readonly Trajectory[]): string {
  return [...new Set(trajectories.map((t) => t.runId))].sort().join('+');
}

/** Builds the results object; `createdAt` defaults to now. */
export function buildResults(
  summary: readonly SummaryRow[],
  trajectories: readonly Trajectory[],
  createdAt: Date = new Date(),
): ResultsFile {
  return {
    schema: RESULTS_SCHEMA,
    version: RESULTS_VERSION,
    runId: combinedRunId(trajectories),
    createdAt: createdAt.toISOString(),
    summary: [...summary],
    trajectories: [...trajectories],
  };
}

/**
 * Writes `text` to `path` atomically: a temp file in the same directory, then rename, so a reader
 * never sees half a file. Creates the directory.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Writes a results file (pretty JSON, trailing newline) atomically. */
export async function writeResultsFile(path: string, results: ResultsFile): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(results, null, 2)}\n`);
}

/** Checks a parsed results object; throws an Error naming `path` and the first problem. */
export function parseResults(value: unknown, path: string): ResultsFile {
  const fail = (problem: string): never => {
    throw new Error(`${path}: not a Witness results file: ${problem}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('the top level is not an object');
  const v = value as Record<string, unknown>;
  if (v.schema !== RESULTS_SCHEMA) fail(`schema is ${JSON.stringify(v.schema)}, expected "${RESULTS_SCHEMA}"`);
  if (v.version !== RESULTS_VERSION) {
    fail(`version is ${JSON.stringify(v.version)}, this reader understands version ${RESULTS_VERSION}`);
  }
  if (typeof v.runId !== 'string') fail('field "runId" must be a string');
  if (typeof v.createdAt !== 'string') fail('field "createdAt" must be a string');
  if (!Array.isArray(v.summary)) fail('field "summary" must be an array');
  if (v.ledger !== undefined) {
    const problem = ledgerProblem(v.ledger);
    if (problem) fail(`ledger: ${problem}`);
  }
  if (!Array.isArray(v.trajectories)) return fail('field "trajectories" must be an array');
  v.trajectories.forEach((t: unknown, i: number) => {
    const problem = trajectoryProblem(t);
    if (problem) fail(`trajectories[${i}]: ${problem}`);
  });
  return value as ResultsFile;
}

/** Reads and validates a results file; every error names the file. */
export async function readResultsFile(path: string): Promise<ResultsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot read results file: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: results file is not valid JSON: ${(error as Error).message}`);
  }
  return parseResults(parsed, path);
}
