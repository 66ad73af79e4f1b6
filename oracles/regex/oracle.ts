/**
 * The A-CEGIS regex oracle: full-match semantics over 12 + 12 hidden tests, counterexample
 * witnesses ("too narrow" / "too broad"), an exact DFA equivalence check beyond the paper, and
 * hardening probes. Golds may be brics (NL-RX-Turk's `targ.txt`) or ECMAScript; candidates are
 * ECMAScript by default (what models write).
 */
import type { Observer, Oracle } from '../../core/oracle.ts';
import { TaskInputError } from '../../core/oracle.ts';
import { deriveSeed, Rng } from '../../core/random.ts';
import type { Candidate, JsonObject, Verdict, VerdictError, Witness } from '../../core/types.ts';
import type { Dialect, RegexNode } from './ast.ts';
import { printBrics, printEcmascript } from './ast.ts';
import { parseBrics } from './brics.ts';
import { compileCandidate as compileWithin, isVerdictError, matchFailure, MAX_ANSWER_LENGTH } from './candidate.ts';
import { compileRegex, type CompiledRegex } from './compile.ts';
import { parseEcmascript } from './ecmascript.ts';
import { compareLanguages, isEmptyLanguage } from './equivalence.ts';
import { isStackOverflow, RegexTooComplexError } from './errors.ts';
import { extractRegex } from './extract.ts';
import { regexHardener } from './hardener.ts';
import { caseWitness, generateHiddenTests } from './hidden-tests.ts';
import { sharedMatcher, type RegexMatcher } from './matcher.ts';
import { mutateRegex } from './mutate.ts';
import { observeRegex } from './observe.ts';
import type { RegexPrepared } from './prepared.ts';
import { regexRenderer } from './render.ts';

export interface RegexOracleOptions {
  /** Dialect the model answers in (default ecmascript). */
  candidateDialect?: Dialect;
  /** Dialect of the golds; default: the task's `context.dialect`, else ecmascript. */
  goldDialect?: Dialect;
  positives?: number;
  negatives?: number;
  /** Seed of the hidden tests (default 0); the same seed gives the same tests on every run. */
  seed?: number;
  /** Deadline for matching a non-regular candidate (default 1000 ms). */
  deadlineMs?: number;
  /** Longest answer compiled, in characters (default 100,000); longer ones are `too-complex`. */
  maxAnswerLength?: number;
  matcher?: RegexMatcher;
}

export type { RegexPrepared };

export const DIALECT_NAMES: Record<Dialect, string> = {
  ecmascript: 'ECMAScript (JavaScript RegExp)',
  brics: 'dk.brics automaton',
};

export function regexOracle(options: RegexOracleOptions = {}): Oracle<RegexPrepared> {
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

  function parseInDialect(program: string, dialect: Dialect): RegexNode | null {
    try {
      return dialect === 'brics' ? parseBrics(program) : parseEcmascript(program).node;
    } catch {
      return null;
    }
  }

  function translate(program: string, from: Dialect, to: Dialect): string {
    if (from === to) return program;
    const node = parseInDialect(program, from);
    if (!node) return program;
    try {
      return to === 'ecmascript' ? printEcmascript(node) : printBrics(node);
    } catch (error) {
      // `&` / `~` print through a DFA; past its budget the sim answers in the gold's notation (a failed turn, not a crash).
      if (error instanceof RegexTooComplexError || isStackOverflow(error)) return program;
      throw error;
    }
  }

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
    const outcome = await matcher().matchAll(compiled, prepared.cases.map((c) => c.input), deadlineMs);
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
            : { falsePositive: comparison.falsePositive ?? null, falseNegative: comparison.falseNegative ?? null, ...(comparison.partial ? { partial: true } : {}) }),
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

  const hardener = regexHardener({ compile: compileCandidate, matcher, deadlineMs });

  const observer: Observer<RegexPrepared> = {
    async observe(prepared, candidate) {
      const compiled = compileCandidate(candidate);
      if (isVerdictError(compiled)) return { ok: false, error: compiled, output: '' };
      return observeRegex(matcher(), prepared.task.description, compiled, deadlineMs);
    },
    describe: async () =>
      [
        `Regex dialect: ${DIALECT_NAMES[candidateDialect]}.`,
        'Full-match semantics: the regex must match the entire line, as if wrapped in ^(?:…)$.',
        '`.` matches any character including line terminators; characters are UTF-16 code units.',
        'Flags i and s are honoured (s is implied); u and v are not supported.',
      ].join('\n'),
  };

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
        throw new TaskInputError(item, `the gold regex ${JSON.stringify(task.gold)} is not valid ${DIALECT_NAMES[goldDialect]}: ${(error as Error).message}`);
      }
      if (!gold.dfa || !gold.node) {
        throw new TaskInputError(item, `the gold regex ${JSON.stringify(task.gold)} has no automaton (${gold.nonRegular ?? 'not regular'}), which the hidden tests need`);
      }
      if (isEmptyLanguage(gold)) {
        throw new TaskInputError(item, `the gold regex ${JSON.stringify(task.gold)} denotes the empty language (under ${DIALECT_NAMES[goldDialect]} semantics), so no task can be posed`);
      }
      const cases = generateHiddenTests(gold, new Rng(deriveSeed(seed, task.benchmark, task.id)), { positives, negatives });
      return { task, caseIds: cases.map((c) => c.id), goldDialect, gold, goldNode: gold.node, cases };
    },
    extract: (reply) => extractRegex(reply),
    check,
    simulator: {
      mutate(prepared, program, rng) {
        const node = parseInDialect(program, prepared.goldDialect);
        if (!node) return null;
        // Only mutants that change the language: an equivalent "mistake" would be no mistake.
        const mutated = mutateRegex(node, rng, { dialect: prepared.goldDialect, distinctLanguage: true });
        if (!mutated) return null;
        return prepared.goldDialect === 'brics' ? printBrics(mutated.node) : printEcmascript(mutated.node);
      },
      answer: (prepared, program) => '```regex\n' + translate(program, prepared.goldDialect, candidateDialect) + '\n```',
      async agrees(prepared, candidate, witness) {
        const compiled = compileCandidate(candidate);
        if (isVerdictError(compiled)) return false;
        const outcome = await matcher().matchAll(compiled, [String(witness.input)], deadlineMs);
        return outcome.ok && outcome.results[0] === witness.expected;
      },
    },
  };
}
