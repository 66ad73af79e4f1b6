/**
 * The model client against the local scripted server (real HTTP), side by side in one run:
 * - what checking each 200 body costs: Witness's client vs the bare `openai` client, on small and
 *   on large replies;
 * - what 20 % injected faults cost in wall time and attempts (every fault kind, hangs cut by a
 *   short per-attempt timeout), against the same requests without faults;
 * - how many calls such faults still fail with the former default of 2 retries and with the
 *   default policy (retries within a time budget);
 * - how many endpoint calls the response cache makes when several strategies send the same
 *   requests at once (identical requests in flight share one call).
 * Prints figures and ratios; no pass/fail on time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { defaultConfig } from '../core/config.ts';
import { withCache } from '../core/models/cache.ts';
import type { ChatModel } from '../core/models/model.ts';
import { createOpenAIModel } from '../core/models/openai.ts';
import { startTestModelServer, type TestServerOptions } from '../testing/model-server.ts';

const CALLS = 400;
const CONCURRENCY = 8;
const ask = (i: number) => ({ messages: [{ role: 'user' as const, content: `question ${i}` }], trial: 0 });

async function timed(label: string, run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  console.log(`  ${label.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(7)} s`);
  return ms;
}

async function inParallel(n: number, call: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await call(next++);
    }),
  );
}

const witness = (baseURL: string, extra: Partial<Parameters<typeof createOpenAIModel>[0]> = {}) =>
  createOpenAIModel({
    model: 'm',
    baseURL,
    apiKey: 'k',
    timeoutMs: 10_000,
    maxRetries: 5,
    concurrency: CONCURRENCY,
    ...extra,
  });

console.log(`body check: ${CALLS} calls, ${CONCURRENCY} in flight, median of 5 rounds after a warm-up`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
for (const size of [200, 200_000]) {
  const server = await startTestModelServer([{ content: 'x'.repeat(size) }]);
  const bare = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
  const ours = witness(server.baseURL);
  const viaBare = () =>
    inParallel(CALLS, (i) => bare.chat.completions.create({ model: 'm', messages: ask(i).messages }));
  const viaOurs = () => inParallel(CALLS, (i) => ours.complete(ask(i)));
  await viaBare();
  await viaOurs();
  const plain: number[] = [];
  const checked: number[] = [];
  for (let round = 0; round < 5; round++) {
    let started = performance.now();
    await viaBare();
    plain.push(performance.now() - started);
    started = performance.now();
    await viaOurs();
    checked.push(performance.now() - started);
  }
  const [p, c] = [median(plain), median(checked)];
  console.log(
    `  ${size.toLocaleString('en-US').padStart(7)}-char replies: bare openai client ${(p / CALLS).toFixed(3)} ms/call, Witness client ${(c / CALLS).toFixed(3)} ms/call → ${(c / p).toFixed(2)}×`,
  );
  await server.close();
}

console.log(`\nfaults: ${CALLS / 2} distinct calls, maxRetries 5, per-attempt timeout 300 ms`);
const runWith = async (label: string, options: TestServerOptions) => {
  const server = await startTestModelServer([{ content: 'fine' }], options);
  const model = witness(server.baseURL, { timeoutMs: 300 });
  const ms = await timed(label, () => inParallel(CALLS / 2, (i) => model.complete(ask(i))));
  const faults = server.requests.filter((r) => r.fault).length;
  console.log(`  → ${server.requests.length} attempts, ${faults} faulted, every call answered`);
  await server.close();
  return ms;
};
const clean = await runWith('no faults', {});
const faulty = await runWith('20 % faulted attempts, every kind', { faults: { seed: 1, rate: 0.2 } });
console.log(
  `  → faults cost ${(faulty / clean).toFixed(1)}× the wall time (backoff 0.4–0.5 s per retry, hangs wait out the timeout)`,
);

const { model: defaults } = defaultConfig('.');
const RETRY_CALLS = 1_000;
console.log(
  `\nretry policy: ${RETRY_CALLS} distinct calls against 20 % faulted attempts (every kind), per-attempt timeout 300 ms`,
);
for (const [label, policy] of [
  ['former default: maxRetries 2', { maxRetries: 2 }],
  [
    `default: maxRetries ${defaults.maxRetries}, retry budget ${defaults.retryBudgetMs / 60_000} min`,
    { maxRetries: defaults.maxRetries, retryBudgetMs: defaults.retryBudgetMs },
  ],
] as const) {
  const server = await startTestModelServer([{ content: 'fine' }], { faults: { seed: 7, rate: 0.2 } });
  const model = witness(server.baseURL, { timeoutMs: 300, ...policy });
  let failed = 0;
  await timed(label, () =>
    inParallel(RETRY_CALLS, (i) =>
      model.complete(ask(i)).catch(() => {
        failed++;
      }),
    ),
  );
  console.log(`  → ${server.requests.length} attempts, ${failed} of ${RETRY_CALLS} calls failed`);
  await server.close();
}

console.log('\nresponse cache: 6 strategies send the same 50 first-turn requests at once');
for (const shared of [false, true]) {
  const server = await startTestModelServer([{ content: 'answer', delayMs: 20 }]);
  const path = join(mkdtempSync(join(tmpdir(), 'witness-perf-models-')), 'cache.sqlite');
  const open = (): ChatModel =>
    withCache(witness(server.baseURL), { path, mode: 'readwrite', sampling: { temperature: 0 } });
  // One cache for all strategies (as in a suite), or one per strategy on the same file (nothing shared in flight).
  const models = shared
    ? Array.from({ length: 6 }, () => open()).fill(open())
    : Array.from({ length: 6 }, () => open());
  await timed(`300 requests, 50 distinct, ${shared ? 'one cache' : 'six caches, one file'}`, () =>
    Promise.all(
      Array.from({ length: 300 }, (_, i) => (models[i % 6] as ChatModel).complete(ask(Math.floor(i / 6)))),
    ).then(() => undefined),
  );
  console.log(`  → ${server.requests.length} endpoint calls`);
  await Promise.all([...new Set(models)].map((m) => m.close?.()));
  await server.close();
}
