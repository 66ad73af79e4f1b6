/**
 * Cypher oracle performance, measured side by side in one run: the Java launcher's startup time and
 * peak memory (the JVM's VmHWM), loading the skyways graph, query throughput (raw read
 * transactions vs the oracle's full check: guard + run + comparison, uncached), the result-cap
 * proxy's cost (the same queries through it and direct) and what it saves on a result bomb, and
 * the cost of a hardening probe round. Prints figures; no pass/fail on time.
 *
 *   npx tsx perf/cypher.ts
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../core/config.ts';
import { Rng } from '../core/random.ts';
import { createDriver } from '../oracles/cypher/driver.ts';
import { proxyTarget, startResultCapProxy } from '../oracles/cypher/bolt/result-cap.ts';
import { DEFAULT_MAX_RESULT_BYTES, MAX_VALUE_NESTING, runReadQuery } from '../oracles/cypher/execute.ts';
import { SKYWAYS_GRAPH_FILE, SKYWAYS_QUESTIONS_FILE } from '../oracles/cypher/fixture-paths.ts';
import { loadSimpleKG } from '../oracles/cypher/load-graph.ts';
import { cypherOracle } from '../oracles/cypher/oracle.ts';
import { loadCypherBenchQuestions } from '../oracles/cypher/loader.ts';
import { startLauncher } from '../oracles/cypher/server/launcher.ts';
import { readSimpleKG } from '../oracles/cypher/simplekg.ts';

function memoryMb(pid: number | undefined, field: 'VmHWM' | 'VmRSS'): number {
  if (!pid) return Number.NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return kb / 1024;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const kg = readSimpleKG(SKYWAYS_GRAPH_FILE);
const tasks = loadCypherBenchQuestions(SKYWAYS_QUESTIONS_FILE).tasks;

let started = performance.now();
const { java, heapMb } = loadConfig().config.neo4j;
const server = await startLauncher({
  log: (line) => console.log(line),
  ...(java ? { java } : {}),
  ...(heapMb ? { heapMb } : {}),
});
try {
  console.log(`launcher startup      ${ms(server.startupMs)} (JVM -Xmx512m, SerialGC; ${server.describe})`);
  console.log(`JVM memory after start  RSS ${memoryMb(server.pid, 'VmRSS').toFixed(0)} MB`);

  const driver = createDriver(server.uri);
  started = performance.now();
  await loadSimpleKG(driver, kg);
  console.log(
    `load skyways graph    ${ms(performance.now() - started)} (${kg.entities.length} entities, ${kg.relations.length} relations, all indexes)`,
  );

  // Warm up the planner and the JIT once, then measure.
  for (const t of tasks) await runReadQuery(driver, t.gold, { timeoutMs: 60_000 });
  const rounds = 3;
  started = performance.now();
  for (let r = 0; r < rounds; r++) for (const t of tasks) await runReadQuery(driver, t.gold, { timeoutMs: 60_000 });
  const rawMs = performance.now() - started;
  const rawRate = (rounds * tasks.length) / (rawMs / 1000);

  const oracle = cypherOracle({ uri: server.uri, graphs: [kg] });
  const prepared = await Promise.all(tasks.map((t) => oracle.prepare(t)));
  started = performance.now();
  let checks = 0;
  for (let r = 0; r < rounds; r++) {
    for (const p of prepared) {
      // A fresh text each round defeats the caches: guard (EXPLAIN) + run + compare every time.
      await oracle.check(p, { source: `${p.task.gold}${' '.repeat(r + 1)}`, extraction: 'code-block' });
      checks++;
    }
  }
  const checkMs = performance.now() - started;
  const checkRate = checks / (checkMs / 1000);
  started = performance.now();
  for (const p of prepared) await oracle.check(p, { source: `${p.task.gold} `, extraction: 'code-block' });
  const cachedRate = prepared.length / ((performance.now() - started) / 1000);
  console.log(
    `query throughput      raw read transactions ${rawRate.toFixed(0)}/s; oracle check (guard + run + compare) ${checkRate.toFixed(0)}/s = ${(checkRate / rawRate).toFixed(2)}x raw; repeated candidate (cached) ${cachedRate.toFixed(0)}/s`,
  );

  // The result-cap proxy: the same read transactions through it, then a result bomb both ways.
  const proxy = await startResultCapProxy(proxyTarget(server.uri)!, {
    maxBytes: DEFAULT_MAX_RESULT_BYTES,
    maxNesting: MAX_VALUE_NESTING,
  });
  const capped = createDriver(proxy.uri);
  for (const t of tasks) await runReadQuery(capped, t.gold, { timeoutMs: 60_000 });
  const timeRounds = async (d: typeof driver) => {
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) for (const t of tasks) await runReadQuery(d, t.gold, { timeoutMs: 60_000 });
    return (rounds * tasks.length) / ((performance.now() - t0) / 1000);
  };
  // Interleaved, best of two each, so warm-up and load favour neither.
  const directRate = await timeRounds(driver);
  const proxiedFirst = await timeRounds(capped);
  const directSecond = await timeRounds(driver);
  const proxiedRate = Math.max(proxiedFirst, await timeRounds(capped));
  const directBest = Math.max(directRate, directSecond);
  console.log(
    `result-cap proxy      gold queries direct ${directBest.toFixed(0)}/s, through the proxy ${proxiedRate.toFixed(0)}/s = ${(proxiedRate / directBest).toFixed(2)}x`,
  );
  const bomb = 'RETURN range(1, 2500000) AS l';
  const bombRun = async (d: typeof driver) => {
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const t0 = performance.now();
    const run = await runReadQuery(d, bomb, { timeoutMs: 60_000, maxResultBytes: DEFAULT_MAX_RESULT_BYTES });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { ms: performance.now() - t0, mb: (peak - rss0) / 2 ** 20, verdict: run.ok ? 'ok' : run.error.kind };
  };
  const viaProxy = await bombRun(capped);
  const viaDirect = await bombRun(driver);
  console.log(
    `result bomb           ${bomb} (20 MB by the count, over the 16 MiB cap): through the proxy ${viaProxy.verdict} in ${ms(viaProxy.ms)}, RSS +${viaProxy.mb.toFixed(0)} MB; ` +
      `direct (decoded, then counted) ${viaDirect.verdict} in ${ms(viaDirect.ms)}, RSS +${viaDirect.mb.toFixed(0)} MB`,
  );
  await capped.close();
  await proxy.close();

  started = performance.now();
  let probed = 0;
  for (const p of prepared.slice(0, 12)) {
    const report = await oracle.hardener!.probe(
      p,
      { source: `${p.task.gold} `, extraction: 'code-block' },
      { rng: new Rng(7), maxProbes: 320, round: 1 },
    );
    probed += report.probed;
  }
  const probeMs = performance.now() - started;
  console.log(
    `hardening             ${probed} graph variants in ${ms(probeMs)} = ${(probeMs / Math.max(1, probed)).toFixed(1)} ms per variant (apply, gold + candidate, roll back)`,
  );
  await oracle.dispose?.();
  await driver.close();
  console.log(
    `JVM peak memory       VmHWM ${memoryMb(server.pid, 'VmHWM').toFixed(0)} MB (RSS now ${memoryMb(server.pid, 'VmRSS').toFixed(0)} MB)`,
  );
} finally {
  started = performance.now();
  await server.stop();
  console.log(`launcher shutdown     ${ms(performance.now() - started)}`);
}
