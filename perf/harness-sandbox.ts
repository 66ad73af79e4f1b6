/**
 * What running a harness in its sandbox costs: the same nl-rx tasks with the sim, the built-in
 * zero-shot strategy in process versus the zero-shot seed harness in a sandboxed child per episode
 * (one and two at a time), side by side in one run; plus compiling and typechecking one harness.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runEpisode } from '../core/episode.ts';
import { createSimModel } from '../core/models/sim.ts';
import { loadPrompt } from '../core/prompt.ts';
import { loadNlRx } from '../oracles/regex/loader.ts';
import { regexOracle } from '../oracles/regex/oracle.ts';
import { evaluateHarness } from '../optimizers/meta-harness/evaluate.ts';
import { seedHarnessFile } from '../optimizers/meta-harness/seeds.ts';
import { transpileHarness } from '../strategies/harness/transpile.ts';
import { typecheckHarness } from '../optimizers/meta-harness/typecheck.ts';
import { pickStrategies } from '../strategies/index.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const tasks = loadNlRx(here('../fixtures/nl-rx')).tasks.slice(0, 12);
const oracle = regexOracle();
const prompt = loadPrompt(here('../prompts/nl-rx.md'));
const [zeroShot] = pickStrategies('zero-shot');

async function inProcess(): Promise<number> {
  const model = createSimModel({ seed: 1 });
  const started = performance.now();
  for (const task of tasks) {
    const prepared = await oracle.prepare(task);
    await runEpisode({
      runId: 'perf',
      oracle,
      prepared,
      strategy: zeroShot!,
      model,
      prompt,
      budget: 1,
      trial: 0,
      seed: 1,
      hardening: null,
    });
  }
  return (performance.now() - started) / tasks.length;
}

async function sandboxed(concurrency: number): Promise<number> {
  const started = performance.now();
  const evaluation = await evaluateHarness({
    harnessFile: seedHarnessFile('zero-shot'),
    oracle,
    tasks,
    model: createSimModel({ seed: 1 }),
    prompt,
    concurrency,
  });
  if (Object.keys(evaluation.summary.failures).length > 0)
    throw new Error(`harness failures: ${JSON.stringify(evaluation.summary.failures)}`);
  return (performance.now() - started) / tasks.length;
}

await inProcess(); // warm the oracle's caches for both sides
const base = await inProcess();
const one = await sandboxed(1);
const two = await sandboxed(2);
const source = readFileSync(seedHarnessFile('self-verify'), 'utf8');
let started = performance.now();
await transpileHarness(source, 'self-verify.ts');
const compileMs = performance.now() - started;
started = performance.now();
await typecheckHarness(source, 'self-verify.ts');
const typecheckMs = performance.now() - started;

console.log(`nl-rx, sim, ${tasks.length} tasks, zero-shot:`);
console.log(`  in process (built-in strategy)        ${base.toFixed(1)} ms per episode`);
console.log(
  `  sandboxed harness, 1 at a time        ${one.toFixed(1)} ms per episode (${(one / base).toFixed(1)}× in process, +${(one - base).toFixed(0)} ms)`,
);
console.log(
  `  sandboxed harness, 2 at a time        ${two.toFixed(1)} ms per episode (${(two / base).toFixed(1)}× in process)`,
);
console.log(`  compile one harness (esbuild)         ${compileMs.toFixed(0)} ms`);
console.log(`  typecheck one harness (tsc 7)         ${typecheckMs.toFixed(0)} ms`);
await oracle.dispose?.();
