/**
 * results.json written and read one trajectory at a time. The file is the same `witness.results`
 * JSON as before (any JSON reader takes it), laid out so it can also be streamed: the header
 * fields and the summary first, then `"trajectories": [` and one trajectory per line. A reader
 * that finds this layout visits the trajectories line by line with their byte ranges (so a report
 * can come back for one of them); an older pretty-printed file is parsed whole, as before.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { forEachLine } from '../core/jsonl.ts';
import type { Trajectory } from '../core/types.ts';
import type { Ledger } from './ledger.ts';
import { parseResults, RESULTS_SCHEMA, RESULTS_VERSION, readResultsFile } from './results-file.ts';
import type { SummaryRow } from './summary.ts';
import { trajectoryProblem } from './validate.ts';

const TRAJECTORIES_OPEN = '  "trajectories": [';
const TRAJECTORIES_CLOSE = '  ]';
const WRITE_BATCH_CHARS = 1 << 20;

export interface ResultsHeader {
  runId: string;
  createdAt: string;
  summary: SummaryRow[];
  ledger?: Ledger;
}

/** Lines before the trajectories in a streamed file (the ledger's is the last to be added). */
const HEADER_LINES = 7;

/** Writes results.json atomically, pulling the trajectories one at a time from `trajectories`. */
export async function writeResultsStream(
  path: string,
  header: ResultsHeader,
  trajectories: Iterable<Trajectory> | AsyncIterable<Trajectory>,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const out = createWriteStream(temp, 'utf8');
  const failed = new Promise<never>((_, reject) => out.on('error', reject));
  // Lines are handed to the stream in batches of about 1 MB: one write per trajectory costs more than the JSON.
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = async () => {
    const text = pending.join('');
    pending = [];
    pendingLength = 0;
    if (!out.write(text)) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
  };
  const write = async (text: string) => {
    pending.push(text);
    pendingLength += text.length;
    if (pendingLength >= WRITE_BATCH_CHARS) await flush();
  };
  try {
    await write(
      `{\n  "schema": ${JSON.stringify(RESULTS_SCHEMA)},\n  "version": ${RESULTS_VERSION},\n  "runId": ${JSON.stringify(header.runId)},\n  "createdAt": ${JSON.stringify(header.createdAt)},\n  "summary": ${JSON.stringify(header.summary)},\n${header.ledger ? `  "ledger": ${JSON.stringify(header.ledger)},\n` : ''}${TRAJECTORIES_OPEN}\n`,
    );
    let first = true;
    for await (const t of trajectories) {
      await write(`${first ? '' : ',\n'}${JSON.stringify(t)}`);
      first = false;
    }
    await write(`${first ? '' : '\n'}${TRAJECTORIES_CLOSE}\n}\n`);
    await flush();
    await Promise.race([new Promise<void>((r) => out.end(r)), failed]);
    await rename(temp, path);
  } catch (error) {
    out.destroy();
    await rm(temp, { force: true });
    throw error;
  }
}

/** Where one trajectory line of a results file is. */
export interface ResultsLine {
  offset: number;
  bytes: number;
}

/**
 * Visits every trajectory of a results file with its byte range (undefined for an older file,
 * which is parsed whole); returns the header. Every problem names the file and line.
 */
export async function scanResultsFile(
  path: string,
  visit: (trajectory: Trajectory, at: ResultsLine | undefined) => void,
): Promise<ResultsHeader> {
  let head = '';
  let inside = false;
  let closed = false;
  let line = 0;
  const NOT_STREAMABLE = new Error('not streamable');
  try {
    forEachLine(path, (text, offset, bytes) => {
      line++;
      if (closed) return;
      if (!inside) {
        if (text === TRAJECTORIES_OPEN) inside = true;
        else if (line > HEADER_LINES) throw NOT_STREAMABLE;
        else head += `${text}\n`;
        return;
      }
      if (text === TRAJECTORIES_CLOSE) {
        closed = true;
        return;
      }
      const comma = text.endsWith(',') ? 1 : 0;
      let value: unknown;
      try {
        value = JSON.parse(comma ? text.slice(0, -1) : text);
      } catch (error) {
        throw new Error(`${path}:${line}: results file line is not valid JSON: ${(error as Error).message}`);
      }
      const problem = trajectoryProblem(value);
      if (problem) throw new Error(`${path}:${line}: not a Witness results file: ${problem}`);
      visit(value as Trajectory, { offset, bytes: bytes - comma });
    });
  } catch (error) {
    if (error !== NOT_STREAMABLE) {
      if ((error as NodeJS.ErrnoException).code)
        throw new Error(`${path}: cannot read results file: ${(error as Error).message}`);
      throw error;
    }
  }
  const streamable = inside;
  if (streamable && closed) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(`${head}"trajectories": []}`);
    } catch (error) {
      throw new Error(`${path}: results file header is not valid JSON: ${(error as Error).message}`);
    }
    return headerOf(parseResults(parsed, path));
  }
  if (streamable && !closed) throw new Error(`${path}: results file ends inside its trajectories (a torn write?)`);
  const whole = await readResultsFile(path);
  for (const t of whole.trajectories) visit(t, undefined);
  return headerOf(whole);
}

function headerOf(results: ResultsHeader): ResultsHeader {
  const { runId, createdAt, summary, ledger } = results;
  return { runId, createdAt, summary, ...(ledger ? { ledger } : {}) };
}
