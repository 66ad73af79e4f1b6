/**
 * Regex engine benchmark (prints figures, asserts nothing): `npx tsx perf/regex.ts [targ.txt]`
 * (default: targ.txt of the configured NL-RX-Turk folder, `suites["nl-rx"].data` / NLRX_TURK_DIR)
 *
 * 1. Full-match checks per second on one core over NL-RX-Turk golds with sampled ~20-character
 *    inputs (members and non-members): the DFA table matcher vs native `RegExp` `^(?:…)$` (flag
 *    `s`) on the same regular patterns (printEcmascript of each gold), side by side with the ratio.
 * 2. Equivalence + counterexample time per pair over the real targ.txt golds, each paired with
 *    one mutation of itself: candidate compile + compareLanguages with the gold already compiled
 *    (as in the oracle, which compiles the gold once per task), and cold (gold compile included).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../core/random.ts';
import { printBrics, printEcmascript, type RegexNode } from '../oracles/regex/ast.ts';
import { clearCompileCache, compileRegex, type CompiledRegex } from '../oracles/regex/compile.ts';
import { compareLanguages } from '../oracles/regex/equivalence.ts';
import { mutateRegex } from '../oracles/regex/mutate.ts';
import { loadConfig } from '../core/config.ts';
import { findNlRxTurk, NLRX_TURK_SETTING } from '../oracles/regex/loader.ts';
import { sampleLanguage } from '../oracles/regex/sample.ts';

const turk = findNlRxTurk(loadConfig().config.suites['nl-rx'].data);
const TARG = process.argv[2] ?? (turk ? join(turk, 'targ.txt') : NLRX_TURK_SETTING);
if (!existsSync(TARG)) {
  console.error(
    `NL-RX-Turk targ.txt not found at ${TARG}; pass its path as the first argument or configure the folder`,
  );
  process.exit(1);
}
const lines = readFileSync(TARG, 'utf8').split('\n');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function randomInput(rng: Rng, length: number): string {
  const alphabet = 'abcdeghiklnortuyzADGKRTZ0123456789 .-_!';
  return Array.from({ length }, () => alphabet[rng.int(alphabet.length)]).join('');
}

// ---------------------------------------------------------------- 1. matching throughput

function throughput(): void {
  const rng = new Rng(42);
  const golds = lines.filter((_, i) => i % 5 === 0);
  const cases: { compiled: CompiledRegex; native: RegExp; inputs: string[] }[] = [];
  for (const line of golds) {
    const compiled = compileRegex(line, 'brics');
    const native = new RegExp(`^(?:${printEcmascript(compiled.node as RegexNode)})$`, 's');
    const members = sampleLanguage(compiled, rng, 10, { minLength: 16, maxLength: 24 });
    const others = Array.from({ length: 20 - members.length }, () => randomInput(rng, 16 + rng.int(9)));
    cases.push({ compiled, native, inputs: [...members, ...others] });
  }
  const checks = cases.reduce((n, c) => n + c.inputs.length, 0);
  let agree = 0;
  for (const c of cases) for (const input of c.inputs) if (c.compiled.test?.(input) === c.native.test(input)) agree++;

  const time = (run: () => number): { perSecond: number; accepted: number } => {
    run(); // warm-up
    let rounds = 0;
    let accepted = 0;
    const started = performance.now();
    while (performance.now() - started < 1500) {
      accepted = run();
      rounds++;
    }
    return { perSecond: (rounds * checks) / ((performance.now() - started) / 1000), accepted };
  };
  const dfa = time(() => {
    let n = 0;
    for (const c of cases) {
      const test = c.compiled.test as (s: string) => boolean;
      for (const input of c.inputs) if (test(input)) n++;
    }
    return n;
  });
  const native = time(() => {
    let n = 0;
    for (const c of cases) for (const input of c.inputs) if (c.native.test(input)) n++;
    return n;
  });
  const mean = cases.reduce((n, c) => n + c.inputs.reduce((m, s) => m + s.length, 0), 0) / checks;
  console.log(
    `1. full-match checks/s, one core: ${cases.length} NL-RX golds × 20 inputs (mean length ${mean.toFixed(1)}), ${agree}/${checks} verdicts agree`,
  );
  console.log(
    `   DFA table matcher : ${Math.round(dfa.perSecond).toLocaleString('en-US')} checks/s (${dfa.accepted} accepted per round)`,
  );
  console.log(
    `   native RegExp     : ${Math.round(native.perSecond).toLocaleString('en-US')} checks/s (${native.accepted} accepted per round)`,
  );
  console.log(`   ratio DFA / native: ${(dfa.perSecond / native.perSecond).toFixed(2)}×`);
}

// ---------------------------------------------------------------- 2. equivalence per pair

function equivalence(): void {
  const rng = new Rng(7);
  const warm: number[] = [];
  const cold: number[] = [];
  const failures: string[] = [];
  let equivalentPairs = 0;
  let slowest = '';
  let slowestMs = 0;
  for (const line of lines) {
    clearCompileCache();
    const coldStart = performance.now();
    const gold = compileRegex(line, 'brics');
    const mutation = mutateRegex(gold.node as RegexNode, rng);
    if (!mutation) {
      failures.push(`${line}: no mutation`);
      continue;
    }
    const mutant = printBrics(mutation.node);
    const warmStart = performance.now();
    try {
      const result = compareLanguages(gold, compileRegex(mutant, 'brics'));
      if (!result.decided) failures.push(`${line} vs ${mutant}: ${result.reason}`);
      else if (result.equivalent) equivalentPairs++;
    } catch (error) {
      failures.push(`${line} vs ${mutant}: ${(error as Error).message}`);
    }
    const end = performance.now();
    warm.push(end - warmStart);
    cold.push(end - coldStart);
    if (end - warmStart > slowestMs) {
      slowestMs = end - warmStart;
      slowest = `${line} vs ${mutant} (${mutation.operator})`;
    }
  }
  const report = (label: string, times: number[]) => {
    const sorted = times.slice().sort((a, b) => a - b);
    console.log(
      `   ${label}: p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)} ms`,
    );
  };
  console.log(
    `2. equivalence + counterexample per pair: ${warm.length} targ.txt golds × one mutation each (${equivalentPairs} mutants happened to be equivalent)`,
  );
  report('gold precompiled (mutant compile + compare)', warm);
  report('cold (gold compile + mutation + mutant compile + compare)', cold);
  console.log(`   slowest pair: ${slowest}`);
  console.log(`   failures: ${failures.length}`);
  for (const failure of failures.slice(0, 10)) console.log(`     ${failure}`);
}

throughput();
equivalence();
