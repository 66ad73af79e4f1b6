/**
 * Wrong "equivalent" verdicts on real data (prints counts, asserts nothing):
 * `npx tsx perf/regex-equivalence.ts [NL-RX-Turk dir] [every-nth]`
 *
 * Every (or every n-th) NL-RX-Turk gold is paired with one small mutation of itself (the sim's
 * operators, without the "distinct language" filter). Side by side on the same pairs:
 * - refa's `DFA.structurallyEqual` on the two minimal DFAs (the shortcut the comparison used to take),
 * - `compareLanguages` (the oracle's comparison).
 * - the lazy product of derivatives alone (`lazyComparison`, what decides pairs without full DFAs).
 * A verdict "equivalent" is wrong when the shortest difference automaton (refa, no shortcut) has a
 * word that the reference membership (brute-force recursion over the AST) accepts on exactly one
 * side. Every counterexample `compareLanguages` or the lazy product reports is checked against the
 * same reference; the lazy product's verdicts are also compared with compareLanguages'.
 */
import { Rng } from '../core/random.ts';
import { printBrics, type RegexNode } from '../oracles/regex/ast.ts';
import { bruteForceMatches } from '../testing/regex/brute-force.ts';
import { compileRegex, type CompiledRegex } from '../oracles/regex/compile.ts';
import { compareLanguages, lazyComparison, shortestDifference, type Comparison } from '../oracles/regex/equivalence.ts';
import { mutateRegex } from '../oracles/regex/mutate.ts';
import { loadConfig } from '../core/config.ts';
import { findNlRxTurk, loadNlRx } from '../oracles/regex/loader.ts';

const dir = process.argv[2] ?? findNlRxTurk(loadConfig().config.suites['nl-rx'].data);
if (!dir) {
  console.error('NL-RX-Turk not found: pass its folder (with targ.txt) or set NLRX_TURK_DIR');
  process.exit(1);
}
const every = Number(process.argv[3] ?? 1);
const tasks = loadNlRx(dir).tasks.filter((_, i) => i % every === 0);

/** A word on which the two languages provably differ (checked by the reference), or null. */
function trueDifference(
  gold: CompiledRegex,
  mutant: CompiledRegex,
  goldNode: RegexNode,
  mutantNode: RegexNode,
): string | null {
  for (const [a, b] of [
    [gold, mutant],
    [mutant, gold],
  ] as const) {
    let word: string | undefined;
    try {
      word = shortestDifference(a.dfa!, b.dfa!);
    } catch {
      continue;
    }
    if (word !== undefined && bruteForceMatches(goldNode, word) !== bruteForceMatches(mutantNode, word)) return word;
  }
  return null;
}

let pairs = 0;
let skipped = 0;
let wrongShortcut = 0;
let wrongNew = 0;
let badCounterexamples = 0;
let undecided = 0;
let shortcutMs = 0;
let compareMs = 0;
let lazyMs = 0;
let lazyUndecided = 0;
let lazyDisagreements = 0;
let lazyBadCounterexamples = 0;
const lazyTimes: number[] = [];

/** Counterexamples that the reference does not confirm (0 or 1 per side). */
function badWords(comparison: Comparison, gold: RegexNode, mutant: RegexNode): number {
  if (!comparison.decided || comparison.equivalent) return 0;
  const fp = comparison.falsePositive;
  const fn = comparison.falseNegative;
  const okFp = fp === undefined || (bruteForceMatches(mutant, fp) && !bruteForceMatches(gold, fp));
  const okFn = fn === undefined || (bruteForceMatches(gold, fn) && !bruteForceMatches(mutant, fn));
  return !okFp || !okFn || (fp === undefined && fn === undefined) ? 1 : 0;
}
const examples: string[] = [];
const rng = new Rng(20_240);
for (const task of tasks) {
  const gold = compileRegex(task.gold, 'brics');
  const mutation = mutateRegex(gold.node as RegexNode, rng.fork(task.id), { dialect: 'brics' });
  if (!mutation) {
    skipped++;
    continue;
  }
  let mutant: CompiledRegex;
  try {
    mutant = compileRegex(printBrics(mutation.node), 'brics');
  } catch {
    skipped++;
    continue;
  }
  pairs++;
  let started = performance.now();
  const shortcut = gold.dfa!.structurallyEqual(mutant.dfa!);
  shortcutMs += performance.now() - started;
  started = performance.now();
  const comparison = compareLanguages(gold, mutant);
  compareMs += performance.now() - started;
  const difference =
    shortcut || (comparison.decided && comparison.equivalent)
      ? trueDifference(gold, mutant, gold.node!, mutant.node!)
      : null;
  if (shortcut && difference !== null) {
    wrongShortcut++;
    if (examples.length < 5)
      examples.push(
        `line ${task.id}: ${task.gold}  vs  ${printBrics(mutation.node)}  differ on ${JSON.stringify(difference)}`,
      );
  }
  if (!comparison.decided) undecided++;
  else if (comparison.equivalent && difference !== null) wrongNew++;
  else badCounterexamples += badWords(comparison, gold.node!, mutant.node!);

  started = performance.now();
  const lazy = lazyComparison(gold.node!, mutant.node!).comparison;
  const ms = performance.now() - started;
  lazyMs += ms;
  lazyTimes.push(ms);
  if (!lazy.decided) lazyUndecided++;
  else {
    if (comparison.decided && lazy.equivalent !== comparison.equivalent) lazyDisagreements++;
    lazyBadCounterexamples += badWords(lazy, gold.node!, mutant.node!);
  }
}

const percent = (n: number) => `${((100 * n) / Math.max(pairs, 1)).toFixed(2)} %`;
console.log(
  `${pairs} NL-RX-Turk golds × one mutation each (${skipped} skipped: no mutation or mutant past the DFA budget)`,
);
console.log(
  `  refa structurallyEqual shortcut: ${wrongShortcut} wrong "equivalent" (${percent(wrongShortcut)}), ${shortcutMs.toFixed(0)} ms in total`,
);
console.log(
  `  compareLanguages               : ${wrongNew} wrong "equivalent" (${percent(wrongNew)}), ${badCounterexamples} bad counterexamples, ${undecided} undecided, ${compareMs.toFixed(0)} ms in total`,
);
console.log(
  `  lazy product alone            : ${lazyDisagreements} verdicts unlike compareLanguages, ${lazyBadCounterexamples} bad counterexamples, ${lazyUndecided} undecided, ${lazyMs.toFixed(0)} ms in total`,
);
const sorted = lazyTimes.sort((a, b) => a - b);
const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN).toFixed(2);
console.log(
  `    per pair: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; ratio lazy / compareLanguages in total: ${(lazyMs / Math.max(compareMs, 1e-9)).toFixed(2)}×`,
);
for (const example of examples) console.log(`    e.g. ${example}`);
