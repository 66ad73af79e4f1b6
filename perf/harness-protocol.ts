/**
 * What reading a hostile candidate costs the host. Side by side in one run: the host's line framer
 * (frame.ts: each byte scanned once, chunks kept as a list) against the string buffer it replaced
 * (append each chunk, look for a newline in the whole buffer), on the same chunks — one 1 MiB line
 * in 4 KiB chunks, and 8 MiB of 200-byte lines. Then, through the real sandbox, a candidate that
 * forges its completion and floods stdout, and one that floods lines until the output cap: the
 * episode's time, the host's CPU time and its peak resident memory while it runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimModel } from '../core/models/sim.ts';
import { regexOracle } from '../oracles/regex/oracle.ts';
import { evaluateHarness } from '../optimizers/meta-harness/evaluate.ts';
import { LineFramer } from '../strategies/harness/frame.ts';
import { MAX_LINE_BYTES } from '../strategies/harness/protocol.ts';
import { REGEX_PROMPT, REGEX_TASKS, writeHarness } from '../testing/meta-harness/support.ts';

/** The reading loop the framer replaced, as it was (lines are counted, not parsed). */
function stringBuffer(chunks: readonly Buffer[]): number {
  let buffer = '';
  let lines = 0;
  for (const chunk of chunks) {
    buffer += chunk.toString('utf8');
    if (buffer.length > MAX_LINE_BYTES && !buffer.includes('\n')) return lines;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      buffer = buffer.slice(newline + 1);
      lines++;
    }
  }
  return lines;
}

function framer(chunks: readonly Buffer[]): number {
  const framing = new LineFramer({ maxLineBytes: MAX_LINE_BYTES, maxTotalBytes: 1 << 30 });
  let lines = 0;
  for (const chunk of chunks) lines += framing.push(chunk).lines.length;
  return lines;
}

const chunked = (text: string, size: number) => {
  const all = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < all.length; at += size) chunks.push(all.subarray(at, at + size));
  return chunks;
};

const median = (run: () => void, times = 5) => {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    ms.push(performance.now() - started);
  }
  return ms.sort((a, b) => a - b)[Math.floor(times / 2)] as number;
};

const workloads: [string, Buffer[]][] = [
  ['one 1 MiB line in 4 KiB chunks', chunked(`${'x'.repeat(MAX_LINE_BYTES - 1)}\n`, 4096)],
  ['8 MiB of 200-byte lines in 64 KiB chunks', chunked(`${'y'.repeat(199)}\n`.repeat(8 * 5243), 65536)],
];
console.log('framing, median of 5 (ms):');
for (const [name, chunks] of workloads) {
  const before = median(() => stringBuffer(chunks));
  const after = median(() => framer(chunks));
  console.log(
    `  ${name.padEnd(44)} string buffer ${before.toFixed(1).padStart(7)}   framer ${after.toFixed(1).padStart(6)}   ${(before / after).toFixed(1)}×`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'witness-perf-protocol-'));
const STDOUT = 'const out = (globalThis as any).process.stdout;';
const cases: [string, string][] = [
  [
    'forged done, then a stdout flood',
    "    out.write(JSON.stringify({ type: 'done', program: first.program, rationale: '' }) + '\\n');\n    const chunk = 'x'.repeat(1 << 16);\n    for (;;) out.write(chunk);",
  ],
  [
    'a flood of 512 KiB lines (output cap)',
    "    const line = JSON.stringify({ type: 'hello', pad: 'x'.repeat(512 * 1024) }) + '\\n';\n    for (;;) { out.write(line); await new Promise((r) => setTimeout(r, 0)); }",
  ],
];
console.log('\nhostile candidates in the sandbox (one episode each, wall time 30 s):');
for (const [name, body] of cases) {
  const file = writeHarness(dir, name.replace(/\W+/g, '-'), body, STDOUT);
  const rss = process.memoryUsage().rss;
  let peak = rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const cpu = process.cpuUsage();
  const evaluation = await evaluateHarness({
    harnessFile: file,
    oracle: regexOracle(),
    tasks: REGEX_TASKS.slice(0, 1),
    model: createSimModel({ seed: 1 }),
    prompt: REGEX_PROMPT,
    budgets: { wallMs: 30_000 },
  });
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  const [episode] = evaluation.episodes;
  console.log(
    `  ${name.padEnd(40)} ${episode?.failure ? `failure ${episode.failure.kind}` : 'completed'}, episode ${episode?.durationMs} ms, host CPU ${((used.user + used.system) / 1000).toFixed(0)} ms, host RSS peak +${((peak - rss) / 2 ** 20).toFixed(1)} MiB`,
  );
}
rmSync(dir, { recursive: true, force: true });
