/**
 * Harness overhead (prints figures, asserts nothing on time): `npx tsx perf/overhead.ts [concurrency] [trials]`
 *
 * A regex suite (perf/overhead-suite.eval.ts: the 37 nl-rx fixture tasks × two feedback strategies,
 * diagnostic and error-only, × `trials`, default 6, so that the run's tail, when fewer episodes than
 * `concurrency` remain, is a small share; WITNESS_PERF_STRATEGIES names others) through
 * the real vitest (perf/overhead.vitest.config.ts: the bench project's settings and reporters), its
 * model the scripted OpenAI-compatible server
 * (testing/model-server.ts) answering every call after 200 ms with a valid regex that is wrong
 * for every task, so every episode runs its whole turn budget through the real regex oracle
 * (counterexamples and all). Response cache off, hardening off (WITNESS_HARDENING=0: no answer
 * ever succeeds, so it would not start anyway), model concurrency as given (default 16).
 * Ideal = total model latency / concurrency (calls × 200 ms / concurrency). Printed: the calls, the
 * ideal, the suite's span (first call arriving to last reply sent, what the harness controls), the
 * whole vitest process's wall time (start-up and the reporter included), and the ratios (target:
 * span within 5 % of the ideal).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestModelServer } from '../testing/model-server.ts';

const LATENCY_MS = 200;
const concurrency = Number(process.argv[2] ?? 16);
const trials = Number(process.argv[3] ?? 6);
if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency: a positive integer');
if (!Number.isInteger(trials) || trials < 1) throw new Error('trials: a positive integer');
const root = fileURLToPath(new URL('..', import.meta.url));

const server = await startTestModelServer(() => ({ content: '```regex\n[a-c]+xyz\n```', delayMs: LATENCY_MS }));
const dir = mkdtempSync(join(tmpdir(), 'witness-perf-overhead-'));
try {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'perf/overhead.vitest.config.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        WITNESS_MODEL: 'scripted-200ms',
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: 'perf',
        WITNESS_CACHE: 'off',
        WITNESS_HARDENING: '0',
        WITNESS_CONCURRENCY: String(concurrency),
        WITNESS_TRIALS: String(trials),
        WITNESS_OUT: join(dir, 'out'),
        WITNESS_STORE: join(dir, 'store'),
        WITNESS_RUN_ID: `perf-overhead-${process.pid}`,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const wallMs = performance.now() - started;
  if (status !== 0) throw new Error(`the bench run failed with status ${status}: ${stderr}`);
  const calls = server.requests.length;
  if (calls === 0) throw new Error('the suite made no model calls');
  const arrivals = server.requests.map((r) => r.receivedAtMs);
  const first = Math.min(...arrivals);
  const spanMs = Math.max(...arrivals) + LATENCY_MS - first;
  // Time within the span with no call in flight: where the harness, not the model, was the bottleneck.
  const sorted = [...arrivals].sort((a, b) => a - b);
  let idleMs = 0;
  let reach = first;
  for (const at of sorted) {
    if (at > reach) idleMs += at - reach;
    reach = Math.max(reach, at + LATENCY_MS);
  }
  const idealMs = (calls * LATENCY_MS) / concurrency;
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `regex suite (nl-rx fixtures × ${process.env.WITNESS_PERF_STRATEGIES ?? 'diagnostic,error-only'}), scripted model (${LATENCY_MS} ms a call), hardening off, model concurrency ${concurrency}, trials ${trials}, ${availableParallelism()} cores`,
  );
  console.log(
    `  ${calls} model calls; at most ${server.maxInFlight} in flight; ${s(idleMs)} of the span with none in flight`,
  );
  console.log(`  ideal (calls × ${LATENCY_MS} ms / ${concurrency}):  ${s(idealMs)}`);
  console.log(
    `  suite span (first call → last reply): ${s(spanMs)}  → ${(spanMs / idealMs).toFixed(3)}× the ideal (target ≤ 1.05×)`,
  );
  console.log(
    `  vitest process wall:                  ${s(wallMs)}  → ${(wallMs / idealMs).toFixed(3)}× (start-up ${s(wallMs - spanMs)} incl. the reporter)`,
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
