import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { buildBaseline, outcomeOf, readGateInput, succeeded, writeBaselineFile } from './outcomes.ts';
import { buildResults, writeResultsFile } from './results-file.ts';
import { summarize } from './summary.ts';

const trajectories = [
  makeTrajectory({
    taskId: 'b',
    turns: [
      { source: 'x', pass: [] },
      { source: 'y', pass: CASES },
    ],
    hardening: { status: 'robust' },
  }),
  makeTrajectory({ taskId: 'a', turns: [{ source: 'y', pass: CASES }] }),
  makeTrajectory({ taskId: 'c', status: 'model-error', turns: [{ source: null, modelError: 'HTTP 500' }] }),
];

describe('instance outcomes', () => {
  it('project a trajectory to what the gate compares, model errors unsolved', () => {
    expect(outcomeOf(trajectories[0]!)).toEqual({
      benchmark: 'nlrx-turk',
      strategy: 'diagnostic',
      taskId: 'b',
      trial: 0,
      model: 'sim',
      runId: 'run-1',
      promptHash: '0123456789abcdef',
      status: 'solved',
      solvedAtTurn: 2,
      hardening: 'robust',
    });
    const [b, a, c] = trajectories.map(outcomeOf);
    expect([a, b, c].map((o) => [succeeded(o!, 'pass1'), succeeded(o!, 'passFinal'), succeeded(o!, 'robust')])).toEqual(
      [
        [true, true, false],
        [false, true, true],
        [false, false, false],
      ],
    );
  });

  it('round-trip through a compact baseline file, one instance per line, and through a results file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'witness-baseline-'));
    const path = join(dir, 'baseline.json');
    await writeBaselineFile(path, buildBaseline(trajectories, new Date(0)));
    const text = await readFile(path, 'utf8');
    expect(text.split('\n').filter((l) => l.startsWith('    {"benchmark"'))).toHaveLength(3);
    const read = await readGateInput(path);
    expect(read.instances.map((i) => i.taskId)).toEqual(['a', 'b', 'c']);
    expect(read.runId).toBe('run-1');
    const resultsPath = join(dir, 'results.json');
    await writeResultsFile(resultsPath, buildResults(summarize(trajectories), trajectories));
    expect((await readGateInput(resultsPath)).instances).toEqual(trajectories.map(outcomeOf));
  });

  it('names the file and the first problem of unusable input', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'witness-baseline-'));
    const write = async (name: string, text: string) => {
      await writeFile(join(dir, name), text);
      return join(dir, name);
    };
    await expect(readGateInput(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read/);
    await expect(readGateInput(await write('bad.json', '{'))).rejects.toThrow(/bad\.json: not valid JSON/);
    await expect(readGateInput(await write('other.json', '{"schema":"x"}'))).rejects.toThrow(
      /other\.json: not a Witness results or baseline file: schema is "x"/,
    );
    const broken = {
      schema: 'witness.baseline',
      version: 1,
      runId: 'r',
      createdAt: '',
      instances: [{ ...outcomeOf(trajectories[0]!), status: 'won' }],
    };
    await expect(readGateInput(await write('broken.json', JSON.stringify(broken)))).rejects.toThrow(
      /broken\.json: .*instances\[0\]: field "status" must be one of/,
    );
    await expect(readGateInput(await write('future.json', JSON.stringify({ ...broken, version: 2 })))).rejects.toThrow(
      /version is 2, this reader understands version 1/,
    );
    await expect(
      readGateInput(await write('results.json', '{"schema":"witness.results","version":1}')),
    ).rejects.toThrow(/results\.json: not a Witness results file/);
  });
});
