/**
 * A suite run by the bench parts (core/suite-parts.ts): `witness bench` starts one worker per part,
 * each running its share of the concurrent strategies' episodes, the sequential strategy whole in
 * one of them; every episode is recorded once, in one run.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readResultsFile } from '../reports/results-file.ts';
import { witnessBench } from '../testing/bench-child.ts';

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('bench parts', () => {
  it('run one suite in one worker per core, every episode once', async () => {
    const run = await witnessBench({ WITNESS_RUN_ID: 'parts' }, [
      '--suite',
      'nl-rx',
      '--strategies',
      'zero-shot,cheatsheet',
    ]);
    made.push(run.dir);
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    const results = await readResultsFile(join(run.dir, 'out', 'results.json'));
    const episodes = results.trajectories.map((t) => `${t.taskId} ${t.strategy}`);
    expect(new Set(episodes).size).toBe(episodes.length);
    const tasks = new Set(results.trajectories.map((t) => t.taskId));
    expect(episodes.length).toBe(tasks.size * 2);

    // Each worker process appends to a store file of its own (`<benchmark>.<pid>.<random>.jsonl`).
    const storeDir = join(run.dir, 'store', 'parts', 'trajectories');
    const files = readdirSync(storeDir);
    expect(files).toHaveLength(Math.min(4, availableParallelism()));
    const strategiesIn = files.map(
      (file) =>
        new Set(
          readFileSync(join(storeDir, file), 'utf8')
            .trim()
            .split('\n')
            .map((line) => (JSON.parse(line) as { strategy: string }).strategy),
        ),
    );
    // The sequential strategy (a memory carried from task to task) runs whole in one part.
    expect(strategiesIn.filter((s) => s.has('cheatsheet'))).toHaveLength(1);
    if (files.length > 1) expect(strategiesIn.every((s) => s.has('zero-shot'))).toBe(true);
  }, 300_000);
});
