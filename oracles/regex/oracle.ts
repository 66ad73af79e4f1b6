/**
 * The A-CEGIS regex oracle: full-match semantics over 12 + 12 hidden tests, counterexample
 * witnesses ("too narrow" / "too broad"), an exact DFA equivalence check beyond the paper, and
 * hardening probes. Golds may be brics (NL-RX-Turk's `targ.txt`) or ECMAScript; candidates are
 * ECMAScript by default (what models write).
 */
import type { SimulatedOracle } from '../../core/oracle.ts';
import { TaskInputError } from '../../core/oracle.ts';
import { deriveSeed, Rng } from '../../core/random.ts';
import type { Candidate, JsonObject, Verdict, VerdictError, Witness } from '../../core/types.ts';
import { DIALECT_NAMES, type Dialect } from './ast.ts';
import { compileCandidate as compileWithin, isVerdictError, matchFailure, MAX_ANSWER_LENGTH } from './candidate.ts';
import { compileRegex, type CompiledRegex } from './compile.ts';
import { compareLanguages, isEmptyLanguage } from './equivalence.ts';
import { extractRegex } from './extract.ts';
import { regexHardener } from './hardener.ts';
import { caseWitness, generateHiddenTests } from './hidden-tests.ts';
import { sharedMatcher } from './matcher.ts';
import { regexObserver } from './observer.ts';
import type { RegexOracleOptions, RegexPrepared, RegexRuntime } from './prepared.ts';
import { regexRenderer } from './render.ts';
import { regexSimulator } from './simulator.ts';

export type { RegexOracleOptions, RegexPrepared };

/** The regex oracle: hidden tests from the gold's DFA, full-match checks, exact equivalence, hardening. */
export function regexOracle(options: RegexOracleOptions = {}): SimulatedOracle<RegexPrepared> {
  const candidateDialect = options.candidateDialect ?? 'ecmascript';
  const positives = options.positives ?? 12;
  const negatives = options.negatives ?? 12;
  const seed = options.seed ?? 0;
  const deadlineMs = options.deadlineMs ?? 1000;
  const maxAnswerLength = options.maxAnswerLength ?? MAX_ANSWER_LENGTH;
  const matcher = () => options.matcher ?? sharedMatcher();
  const render = regexRenderer({ dialectName: DIALECT_NAMES[candidateDialect], deadlineMs });

  function goldDialectOf(contextDialect: unknown): Dialect {
    if (options.goldDialect) return options.goldDialect;
    return contextDialect === 'brics' || contextDialect === 'ecmascript' ? contextDialect : 'ecmascript';
  }

  const compileCandidate = (candidate: Candidate) => compileWithin(candidate, candidateDialect, maxAnswerLength);
  const runtime: RegexRuntime = { candidateDialect, deadlineMs, compile: compileCandidate, matcher };

  async function check(prepared: RegexPrepared, candidate: Candidate): Promise<Verdict> {
    const started = performance.now();
    const failAll = (kind: VerdictError['kind'], message: string, extra: Record<string, number> = {}): Verdict => ({
      pass: false,
      cases: prepared.cases.map((c) => ({ id: c.id, pass: false })),
      witnesses: [],
      error: { kind, message },
      timings: { totalMs: performance.now() - started, ...extra },
    });
    const compiled = compileCandidate(candidate);
    if (isVerdictError(compiled)) return failAll(compiled.kind, compiled.message);
    const compileMs = performance.now() - started;
    const outcome = await matcher().matchAll(
      compiled,
      prepared.cases.map((c) => c.input),
      deadlineMs,
    );
    if (!outcome.ok) {
      const error = matchFailure(outcome, deadlineMs);
      return failAll(error.kind, error.message, { compileMs, matchMs: outcome.ms });
    }
    const cases = prepared.cases.map((c, i) => ({ id: c.id, pass: outcome.results[i] === c.expected }));
    const witnesses = prepared.cases
      .map((c, i) => (outcome.results[i] === c.expected ? null : caseWitness(c, outcome.results[i] as boolean)))
      .filter((w): w is Witness => w !== null)
      .sort((a, b) => a.size - b.size || String(a.input).localeCompare(String(b.input)));
    const equivalenceStarted = performance.now();
    const comparison = compareLanguages(prepared.gold, compiled);
    const detail: JsonObject = comparison.decided
      ? {
          engine: outcome.engine,
          decided: true,
          equivalent: comparison.equivalent,
          ...(comparison.equivalent
            ? {}
            : {
                falsePositive: comparison.falsePositive ?? null,
                falseNegative: comparison.falseNegative ?? null,
                ...(comparison.partial ? { partial: true } : {}),
              }),
        }
      : { engine: outcome.engine, decided: false, equivalent: null, undecidedBecause: comparison.reason };
    return {
      pass: cases.every((c) => c.pass),
      cases,
      witnesses,
      timings: {
        totalMs: performance.now() - started,
        compileMs,
        matchMs: outcome.ms,
        equivalenceMs: performance.now() - equivalenceStarted,
      },
      detail,
    };
  }

  const hardener = regexHardener(runtime);
  const observer = regexObserver(runtime);

  return {
    name: 'regex',
    language: 'regex',
    tokenizer: 'regex',
    render,
    hardener,
    observer,
    settings: () => ({
      semantics: 'full-match',
      candidateDialect,
      ...(options.goldDialect ? { goldDialect: options.goldDialect } : {}),
      positives,
      negatives,
      seed,
      deadlineMs,
      maxAnswerLength,
    }),
    promptVariables: () => ({ dialect: DIALECT_NAMES[candidateDialect] }),
    async prepare(task) {
      const goldDialect = goldDialectOf(task.context?.dialect);
      const item = `task ${task.id}`;
      let gold: CompiledRegex;
      try {
        gold = compileRegex(task.gold, goldDialect);
      } catch (error) {
        throw new TaskInputError(
          item,
          `the gold regex ${JSON.stringify(task.gold)} is not valid ${DIALECT_NAMES[goldDialect]}: ${(error as Error).message}`,
        );
      }
      // Witness's limit, not the dataset's fault: a harness error.
      if (!gold.dfa || !gold.node) {
        throw new Error(
          `${item}: the gold regex ${JSON.stringify(task.gold)} has no automaton (${gold.nonRegular ?? 'not regular'}), which the hidden tests need`,
        );
      }
      if (isEmptyLanguage(gold)) {
        throw new TaskInputError(
          item,
          `the gold regex ${JSON.stringify(task.gold)} denotes the empty language (under ${DIALECT_NAMES[goldDialect]} semantics), so no task can be posed`,
        );
      }
      const cases = generateHiddenTests(gold, new Rng(deriveSeed(seed, task.benchmark, task.id)), {
        positives,
        negatives,
      });
      return { task, caseIds: cases.map((c) => c.id), goldDialect, gold, goldNode: gold.node, cases };
    },
    extract: (reply) => extractRegex(reply),
    check,
    simulator: regexSimulator(runtime),
  };
}
