/** results.json streamed: valid witness.results JSON, read back line by line; older files still read. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSlice } from '../core/jsonl.ts';
import type { Trajectory } from '../core/types.ts';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { schemaErrors } from './__fixtures__/schemas.ts';
import { buildResults, readResultsFile, writeResultsFile } from './results-file.ts';
import { type ResultsLine, scanResultsFile, writeResultsStream } from './results-stream.ts';
import { summarize } from './summary.ts';

const trajectories = ['1', '2', '3'].map((id, i) =>
  makeTrajectory({ taskId: id, turns: [{ source: `a{${i}}\u2028"\n`, pass: i === 0 ? CASES : [] }] }),
);
const header = { runId: 'run-1', createdAt: '2026-12-01T00:00:00.000Z', summary: summarize(trajectories) };

async function scan(path: string) {
  const seen: { t: Trajectory; at: ResultsLine | undefined }[] = [];
  const head = await scanResultsFile(path, (t, at) => seen.push({ t, at }));
  return { head, seen };
}

describe('the streamed results file', () => {
  it('is a valid witness.results file that scans back one trajectory per line, with byte ranges', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'witness-results-')), 'results.json');
    await writeResultsStream(path, header, trajectories);
    const whole = await readResultsFile(path);
    expect(whole.trajectories).toEqual(trajectories);
    expect(schemaErrors('witness.results', whole)).toEqual([]);
    const { head, seen } = await scan(path);
    expect(head).toEqual(header);
    expect(seen.map((s) => s.t)).toEqual(trajectories);
    for (const { t, at } of seen) expect(JSON.parse(readSlice(path, at?.offset ?? -1, at?.bytes ?? 0))).toEqual(t);
  });

  it('carries the ledger of planned episodes in its header, streamed and read whole, valid against the schema', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'witness-results-')), 'results.json');
    const ledger = {
      planned: 4,
      recorded: 3,
      lost: 0,
      notRun: [
        { benchmark: 'nlrx-turk', model: 'sim', strategy: 'diagnostic', taskId: '4', trial: 0, reason: 'budget' },
      ],
    };
    await writeResultsStream(path, { ...header, ledger }, trajectories);
    const { head, seen } = await scan(path);
    expect(head).toEqual({ ...header, ledger });
    expect(seen.every((s) => s.at !== undefined)).toBe(true);
    const whole = await readResultsFile(path);
    expect(whole.ledger).toEqual(ledger);
    expect(schemaErrors('witness.results', whole)).toEqual([]);
    writeFileSync(path, JSON.stringify({ ...whole, ledger: { ...ledger, planned: 9 } }));
    await expect(readResultsFile(path)).rejects.toThrow(
      'not a Witness results file: ledger: planned must equal recorded + lost + the not-run entries',
    );
  });

  it('writes a file of several write batches (over 1 MB) from an async source, every line intact', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'witness-results-')), 'results.json');
    const many = Array.from({ length: 300 }, (_, i) =>
      makeTrajectory({ taskId: String(i), turns: [{ source: `x{${i}}`.padEnd(8_000, 'y'), pass: CASES }] }),
    );
    async function* source() {
      for (const t of many) yield t;
    }
    await writeResultsStream(path, header, source());
    expect(readFileSync(path).length).toBeGreaterThan(2 * (1 << 20));
    expect((await scan(path)).seen.map((s) => s.t)).toEqual(many);
    expect((await readResultsFile(path)).trajectories).toEqual(many);
  });

  it('writes and scans an empty run', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'witness-results-')), 'results.json');
    await writeResultsStream(path, { ...header, summary: [] }, []);
    expect((await readResultsFile(path)).trajectories).toEqual([]);
    expect((await scan(path)).seen).toEqual([]);
  });

  it('still reads an older pretty-printed results file (whole, without byte ranges)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'witness-results-')), 'results.json');
    await writeResultsFile(path, buildResults(header.summary, trajectories, new Date(header.createdAt)));
    const { head, seen } = await scan(path);
    expect(head.runId).toBe('run-1');
    expect(seen.map((s) => s.t)).toEqual(trajectories);
    expect(seen.every((s) => s.at === undefined)).toBe(true);
  });

  it('names the file and line of a broken trajectory, and a file cut off inside its trajectories', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'witness-results-')), 'results.json');
    await writeResultsStream(path, header, trajectories);
    const lines = readFileSync(path, 'utf8').split('\n');
    writeFileSync(
      path,
      [...lines.slice(0, 8), '{"schema":"witness.trajectory","version":9},', ...lines.slice(9)].join('\n'),
    );
    await expect(scan(path)).rejects.toThrow(`${path}:9: not a Witness results file: version is 9, expected 1`);
    writeFileSync(path, lines.slice(0, 8).join('\n'));
    await expect(scan(path)).rejects.toThrow(`${path}: results file ends inside its trajectories`);
    await expect(scan(join(path, 'missing'))).rejects.toThrow(/cannot read results file/);
  });
});
