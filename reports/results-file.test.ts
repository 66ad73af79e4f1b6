import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { buildResults, parseResults, readResultsFile, writeResultsFile } from './results-file.ts';
import { summarize } from './summary.ts';
import { trajectoryProblem } from './validate.ts';

const dir = await mkdtemp(join(tmpdir(), 'witness-results-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const trajectories = [
  makeTrajectory({ taskId: 'a', turns: [{ source: 'a', pass: CASES }] }),
  makeTrajectory({ taskId: 'b', runId: 'run-0', turns: [{ source: 'b', pass: [] }] }),
];

describe('results file', () => {
  it('round-trips through an atomic write, leaving no temp file behind', async () => {
    const path = join(dir, 'nested', 'results.json');
    const results = buildResults(summarize(trajectories), trajectories, new Date('2026-07-01T12:00:00Z'));
    expect(results).toMatchObject({
      schema: 'witness.results',
      version: 1,
      runId: 'run-0+run-1',
      createdAt: '2026-07-01T12:00:00.000Z',
    });
    await writeResultsFile(path, results);
    expect(await readResultsFile(path)).toEqual(results);
    expect(await readdir(join(dir, 'nested'))).toEqual(['results.json']);
  });

  it('rejects a wrong schema or version with an error naming the file', async () => {
    const path = join(dir, 'other.json');
    await writeFile(path, JSON.stringify({ schema: 'promptfoo.results', version: 1 }));
    await expect(readResultsFile(path)).rejects.toThrow(
      `${path}: not a Witness results file: schema is "promptfoo.results"`,
    );
    const good = buildResults([], []);
    expect(() => parseResults({ ...good, version: 2 }, 'r.json')).toThrow(
      'r.json: not a Witness results file: version is 2',
    );
    expect(() => parseResults([], 'r.json')).toThrow('the top level is not an object');
  });

  it('names an unreadable file, bad JSON and a bad trajectory', async () => {
    await expect(readResultsFile(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read results file/);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"schema": ');
    await expect(readResultsFile(bad)).rejects.toThrow(/bad\.json: results file is not valid JSON/);
    const broken = {
      ...buildResults([], trajectories),
      trajectories: [trajectories[0], { ...trajectories[1], turns: 'none' }],
    };
    expect(() => parseResults(broken, 'r.json')).toThrow(
      'r.json: not a Witness results file: trajectories[1]: field "turns" must be an array',
    );
  });
});

describe('trajectoryProblem', () => {
  it('accepts a well-formed trajectory and names the first bad field otherwise', () => {
    const t = trajectories[0]!;
    expect(trajectoryProblem(t)).toBeNull();
    expect(trajectoryProblem(null)).toBe('not an object');
    expect(trajectoryProblem({ ...t, schema: 'x' })).toMatch(/^schema is "x"/);
    expect(trajectoryProblem({ ...t, version: 0 })).toMatch(/^version is 0/);
    expect(trajectoryProblem({ ...t, taskId: 7 })).toBe('field "taskId" must be a string');
    expect(trajectoryProblem({ ...t, outcome: { status: 'done', solvedAtTurn: null } })).toMatch(/outcome\.status/);
    expect(trajectoryProblem({ ...t, turns: [{ ...t.turns[0], phase: 'probe' }] })).toMatch(/^turns\[0\]/);
  });

  it('checks the fields the spend, plots and trajectory views read', () => {
    const t = trajectories[0]!;
    const turn = t.turns[0]!;
    expect(trajectoryProblem({ ...t, turns: [{ ...turn, usage: { promptTokens: '10' } }] })).toBe(
      'turns[0].usage must have numeric "promptTokens" and "completionTokens"',
    );
    expect(trajectoryProblem({ ...t, turns: [{ ...turn, candidate: { source: 5 } }] })).toBe(
      'turns[0].candidate must be null or have a string "source"',
    );
    expect(trajectoryProblem({ ...t, turns: [{ ...turn, calls: [{ purpose: 'judge', model: 'j' }] }] })).toBe(
      'turns[0].calls[0] must have a string "purpose" and "model" and a numeric "usage"',
    );
    expect(trajectoryProblem({ ...t, pricing: { sim: { input: -1, output: 0 } } })).toBe(
      'pricing of "sim" must have non-negative numeric "input" and "output"',
    );
    expect(trajectoryProblem({ ...t, budget: 0 })).toBe('field "budget" must be a positive integer');
    expect(
      trajectoryProblem({
        ...t,
        pricing: { sim: { input: 1, output: 2 } },
        turns: [
          {
            ...turn,
            calls: [
              {
                purpose: 'judge',
                model: 'j',
                usage: { promptTokens: 1, completionTokens: 0 },
                latencyMs: 1,
                cached: false,
              },
            ],
          },
        ],
      }),
    ).toBeNull();
  });
});
