/**
 * Code-fence extraction on hostile replies (prints figures, asserts nothing): `npx tsx perf/extract.ts`
 *
 * For each hostile shape of core/hostile/shapes.ts: the scanner (core/extract.ts) on a 1 MiB reply
 * — the median of 5 runs, and its rate — next to the regex it replaced (testing/extract-reference.ts)
 * on 8 KB and 32 KB of the same shape, measured side by side in this one process. The regex is
 * stopped growing once one size takes over 5 s (it is quadratic or worse: a megabyte would take
 * minutes to hours, with the event loop blocked all along).
 */
import { codeBlocks } from '../core/extract.ts';
import { backtrackingCodeBlocks } from '../testing/extract-reference.ts';
import { HOSTILE_SHAPES } from '../core/hostile/shapes.ts';

const MIB = 1 << 20;
const OLD_SIZES = [8 << 10, 32 << 10];

function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const format = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0)).padStart(8);

console.log('shape'.padEnd(46), 'scanner 1 MiB ms', '  MB/s', '  regex 8 KB ms', ' regex 32 KB ms', ' 32 KB/8 KB');
let worst = 0;
for (const hostile of HOSTILE_SHAPES) {
  const reply = hostile.build(MIB);
  const scanner = median(Array.from({ length: 5 }, () => timed(() => codeBlocks(reply))));
  worst = Math.max(worst, scanner);
  const old: (number | null)[] = [];
  for (const size of OLD_SIZES) {
    if (old.some((ms) => ms === null || ms > 5_000)) {
      old.push(null);
      continue;
    }
    const small = hostile.build(size);
    old.push(timed(() => backtrackingCodeBlocks(small)));
  }
  const [small, large] = old;
  const growth = small && large ? `${(large / small).toFixed(1)}×`.padStart(10) : '         —';
  console.log(
    hostile.name.padEnd(46),
    format(scanner).padStart(16),
    (reply.length / MIB / (scanner / 1000)).toFixed(0).padStart(6),
    old.map((ms) => (ms === null ? 'skipped' : format(ms)).padStart(15)).join(' '),
    growth,
  );
}
console.log(`\nslowest 1 MiB reply through the scanner: ${worst.toFixed(1)} ms (target < 50 ms)`);
console.log('a linear scan grows 4× from 8 KB to 32 KB; a quadratic one 16×');
