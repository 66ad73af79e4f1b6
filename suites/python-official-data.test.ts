/**
 * BigCodeBench and DSCodeBench on generated copies of their official files: subsets and splits
 * through witness.config.json and the environment, clear errors for broken inputs, and each suite
 * through `witness bench` on its data (sim model, one strategy to keep it short).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type WitnessConfig } from '../core/config.ts';
import { writeBigCodeBenchFolder, writeDsCodeBenchFile } from '../testing/layouts/python.ts';
import { readResultsFile } from '../reports/results-file.ts';
import { witnessBench } from '../testing/bench-child.ts';
import { bigCodeBenchSpec } from '../oracles/python/bigcodebench/spec.ts';
import { dsCodeBenchSpec } from '../oracles/python/dscodebench/spec.ts';

const temp = (name: string) => mkdtempSync(join(tmpdir(), `witness-${name}-`));

/** The spec for a project whose witness.config.json holds `file`, with `env` on top. */
function configured<T>(make: (config: WitnessConfig) => T, file: object, env = {}) {
  const project = temp('py-project');
  writeFileSync(join(project, 'witness.config.json'), JSON.stringify(file));
  return make(loadConfig(project, env).config);
}

async function disposed<T extends { oracle: { dispose?: () => Promise<void> } }>(spec: T): Promise<T> {
  await spec.oracle.dispose?.();
  return spec;
}

describe('BigCodeBench on its official files', () => {
  it('a data folder: the full set by default, the hard subset by suites.bigcodebench.subset, plain or gzipped', async () => {
    for (const gzip of [false, true]) {
      const dir = temp('bcb');
      const { fullIds, hardIds } = writeBigCodeBenchFolder(dir, { gzip });
      const full = await disposed(configured(bigCodeBenchSpec, { suites: { bigcodebench: { data: dir } } }));
      expect(full.tasks.tasks.map((t) => t.id)).toEqual(fullIds);
      expect(full.tasks.issues).toEqual([]);
      expect(full.oracle.settings()).toMatchObject({ timeLimitS: 240 });
      const hard = await disposed(
        configured(bigCodeBenchSpec, { suites: { bigcodebench: { data: dir, subset: 'hard' } } }),
      );
      expect(hard.tasks.tasks.map((t) => t.id)).toEqual(hardIds);
      expect(hard.tasks.tasks[0]?.context?.libs).toEqual(['collections', 'string']);
    }
  });

  it('splits: instruct shows instruct_prompt, complete shows complete_prompt in a fence; --split / WITNESS_SPLIT wins over the file', async () => {
    const dir = temp('bcb');
    writeBigCodeBenchFolder(dir);
    const file = { suites: { bigcodebench: { data: dir, split: 'complete' } } };
    const complete = await disposed(configured(bigCodeBenchSpec, file));
    const task = complete.tasks.tasks[0]!;
    expect(task.description).toMatch(/^```\nimport collections\nimport string\ndef task_func\(text\):\n/);
    expect(task.description.endsWith('\n```')).toBe(true);
    expect(task.context?.split).toBe('complete');
    const instruct = await disposed(configured(bigCodeBenchSpec, file, { WITNESS_SPLIT: 'instruct' }));
    expect(instruct.tasks.tasks[0]?.description).toMatch(/You should write self-contained code starting with:/);
    const byOption = await disposed(bigCodeBenchSpec(loadConfig(temp('p'), {}).config, { split: 'instruct' }));
    expect(byOption.tasks.tasks[0]?.context?.split).toBe('instruct');
  });

  it('broken inputs are clear errors: an unknown split, the hard subset without data, a folder without the file, a bad line', async () => {
    const dir = temp('bcb');
    expect(() => configured(bigCodeBenchSpec, {}, { WITNESS_SPLIT: 'test' })).toThrow(
      'bigcodebench: unknown split "test" (known: instruct, complete)',
    );
    expect(() => configured(bigCodeBenchSpec, { suites: { bigcodebench: { subset: 'hard' } } })).toThrow(
      /the hard subset needs its data \(suites\.bigcodebench\.data or WITNESS_BIGCODEBENCH_DATA\)/,
    );
    expect(() => configured(bigCodeBenchSpec, { suites: { bigcodebench: { data: dir } } })).toThrow(
      `bigcodebench data ${dir} has no full subset (looked for BigCodeBench.jsonl or BigCodeBench.jsonl.gz)`,
    );
    writeBigCodeBenchFolder(dir, { badLine: true });
    const spec = await disposed(configured(bigCodeBenchSpec, { suites: { bigcodebench: { data: dir } } }));
    expect(spec.tasks.tasks).toHaveLength(27);
    expect(spec.tasks.issues).toEqual([
      { item: 'BigCodeBench.jsonl:2', message: expect.stringMatching(/^invalid JSON/) },
    ]);
  });

  it('witness bench runs the hard subset, complete split, from WITNESS_BIGCODEBENCH_DATA (gzipped folder)', async () => {
    const dir = temp('bcb');
    const { hardIds } = writeBigCodeBenchFolder(dir, { gzip: true });
    const run = await witnessBench(
      {
        WITNESS_BIGCODEBENCH_DATA: dir,
        WITNESS_BIGCODEBENCH_SUBSET: 'hard',
        WITNESS_SPLIT: 'complete',
        WITNESS_RUN_ID: 'bcb-official',
      },
      ['suites/bigcodebench.eval.ts', '-t', 'zero-shot$'],
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const results = await readResultsFile(join(run.dir, 'out', 'results.json'));
    expect(results.trajectories.map((t) => t.taskId).sort()).toEqual([...hardIds].sort());
    expect(results.trajectories.every((t) => t.outcome.status !== 'harness-error')).toBe(true);
    const firstPrompt = results.trajectories[0]?.turns[0]?.messages.at(-1)?.content ?? '';
    expect(firstPrompt).toMatch(/in a markdown code block:\n```\n/);
  }, 300_000);
});

describe('DSCodeBench on its official file', () => {
  it('DSCodeBench.json (JSON Lines) from suites.dscodebench.data; a bad line is an issue naming it; splits other than test are errors', async () => {
    const { file, ids } = writeDsCodeBenchFile(temp('ds'), { only: /^witness_std_00[12]$/, badLine: true });
    const spec = await disposed(configured(dsCodeBenchSpec, { suites: { dscodebench: { data: file } } }));
    expect(spec.tasks.tasks.map((t) => t.id)).toEqual(ids);
    expect(spec.tasks.issues).toEqual([
      {
        item: 'DSCodeBench.json:3',
        message: 'missing or non-string field(s): code_problem, ground_truth_code, test_script',
      },
    ]);
    expect(() => configured(dsCodeBenchSpec, {}, { WITNESS_SPLIT: 'train' })).toThrow(
      'dscodebench: unknown split "train" (known: test)',
    );
  });

  it('witness bench runs the file given by WITNESS_DSCODEBENCH_DATA', async () => {
    const { file, ids } = writeDsCodeBenchFile(temp('ds'), { only: /^witness_std_00[12]$/ });
    const run = await witnessBench({ WITNESS_DSCODEBENCH_DATA: file, WITNESS_RUN_ID: 'ds-official' }, [
      'suites/dscodebench.eval.ts',
      '-t',
      'zero-shot$',
    ]);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const results = await readResultsFile(join(run.dir, 'out', 'results.json'));
    expect(results.trajectories.map((t) => t.taskId).sort()).toEqual(ids);
    expect(results.trajectories.every((t) => t.outcome.status !== 'harness-error' && t.caseIds.length >= 200)).toBe(
      true,
    );
  }, 300_000);
});
