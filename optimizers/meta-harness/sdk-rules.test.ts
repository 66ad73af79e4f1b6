/**
 * The SDK's rules, enforced by the host on a real sandboxed child: the memory cap (an episode over
 * it fails with \`budget\` and its memory is not kept), chat before answer (a catchable
 * HarnessUsageError), and a program returned without an answer (a protocol failure).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimModel } from '../../core/models/sim.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { evaluateHarness, type HarnessEpisode } from './evaluate.ts';
import { REGEX_PROMPT as prompt, REGEX_TASKS as tasks, writeHarness } from '../../testing/meta-harness/support.ts';

const oracle = regexOracle();
const dir = mkdtempSync(join(tmpdir(), 'witness-sdk-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SDK rules', () => {
  it('a memory over its cap is a budget failure, and the next episode starts from the last good memory', async () => {
    const file = join(dir, 'hoards-memory.ts');
    writeFileSync(
      file,
      `import { defineHarness } from 'witness-harness';
export default defineHarness({
  name: 'hoards-memory',
  memory: true,
  async solve(ctx) {
    const first = await ctx.model.answer();
    ctx.log({ seen: Object.keys(ctx.memory).length });
    ctx.memory.blob = 'x'.repeat(ctx.memory.blob === undefined ? 10 : 100000);
    return { program: first.program };
  },
});
`,
    );
    const evaluation = await evaluateHarness({
      harnessFile: file,
      oracle,
      tasks: [...tasks, { ...tasks[0]!, id: 'dog-again' }],
      model: createSimModel({ seed: 3 }),
      prompt,
    });
    const [first, second, third] = evaluation.episodes as [HarnessEpisode, HarnessEpisode, HarnessEpisode];
    expect(first.failure).toBeUndefined();
    expect(second.failure).toMatchObject({
      kind: 'budget',
      message: expect.stringMatching(/ctx.memory is \d+ bytes as JSON, over the 65536 bytes allowed/),
    });
    // The third episode saw the first episode's memory (the second's was refused), so it stores a small blob again.
    expect(third.trajectory.refinement?.log.find((e) => e.op === 'log')).toMatchObject({ entry: { seen: 1 } });
    expect(third.failure?.kind).toBe('budget');
  });

  it('SDK rules: chat before answer is a catchable HarnessUsageError; a program without an answer is a protocol failure', async () => {
    const file = join(dir, 'breaks-rules.ts');
    writeFileSync(
      file,
      `import { defineHarness, HarnessUsageError } from 'witness-harness';
export default defineHarness({
  name: 'breaks-rules',
  async solve(ctx) {
    try {
      await ctx.model.chat([{ role: 'user', content: 'hi' }]);
    } catch (error) {
      ctx.log({ usage: error instanceof HarnessUsageError, message: (error as Error).message });
    }
    return { program: 'dog' };
  },
});
`,
    );
    const evaluation = await evaluateHarness({
      harnessFile: file,
      oracle,
      tasks: tasks.slice(0, 1),
      model: createSimModel({ seed: 3 }),
      prompt,
    });
    const [episode] = evaluation.episodes as [HarnessEpisode];
    const log = episode.trajectory.refinement?.log ?? [];
    expect(log.find((e) => e.op === 'log')).toMatchObject({
      entry: { usage: true, message: 'call ctx.model.answer() before ctx.model.chat()' },
    });
    expect(episode.failure).toEqual({
      kind: 'protocol',
      message: 'the harness ended without calling ctx.model.answer()',
    });
    expect(episode.trajectory.turns).toHaveLength(1);
    expect(episode.pass).toBe(false);
  });

  it('a sandbox that cannot start is a harness error naming the cause, not a failure of the harness', async () => {
    const file = writeHarness(dir, 'innocent', '');
    // Node cannot start in 256 MiB of address space: the sandbox fails before any candidate code runs.
    const evaluation = await evaluateHarness({
      harnessFile: file,
      oracle,
      tasks: tasks.slice(0, 1),
      model: createSimModel({ seed: 3 }),
      prompt,
      limits: { addressSpaceBytes: 256 * 1024 * 1024 },
    });
    const [episode] = evaluation.episodes as [HarnessEpisode];
    expect(episode.failure).toBeUndefined();
    expect(episode.harnessError).toMatch(/^the harness sandbox could not start \(/);
    expect(evaluation.summary.harnessErrors).toBe(1);
  });
});
