/**
 * Execution without judgement (HERO-T): which strings a regex matches, over inputs built only from
 * the task statement and the candidate itself — description tokens, generic strings, the
 * candidate's literals and members of its own language and their near misses. Never the gold.
 */
import { hash32, Rng } from '../../core/random.ts';
import type { Observation, Observer } from '../../core/oracle.ts';
import { DIALECT_NAMES } from './ast.ts';
import { isVerdictError, matchFailure } from './candidate.ts';
import type { CompiledRegex } from './compile.ts';
import { mutateString } from './hidden-tests.ts';
import type { RegexMatcher } from './matcher.ts';
import type { RegexPrepared, RegexRuntime } from './prepared.ts';
import { descriptionTokens, GENERIC_PROBES, patternLiterals } from './probes.ts';
import { sampleLanguage } from './sample.ts';

const SHOWN = 12;

/** The visible inputs for a task statement and a candidate (deterministic). */
function visibleInputs(description: string, candidate: CompiledRegex): string[] {
  const rng = new Rng(hash32(`${description}\u0000${candidate.source}`));
  const members = candidate.test ? sampleLanguage(candidate, rng.fork('members'), 8, { maxLength: 16 }) : [];
  const seeds = [
    ...descriptionTokens(description),
    ...patternLiterals(candidate.source),
    ...members,
    ...GENERIC_PROBES.slice(0, 8),
  ];
  const inputs = new Set(seeds);
  for (const s of members) inputs.add(mutateString(s, rng));
  return [...inputs].slice(0, 48);
}

async function observeRegex(
  matcher: RegexMatcher,
  description: string,
  candidate: CompiledRegex,
  deadlineMs: number,
): Promise<Observation> {
  const inputs = visibleInputs(description, candidate);
  const outcome = await matcher.matchAll(candidate, inputs, deadlineMs);
  if (!outcome.ok) return { ok: false, error: matchFailure(outcome, deadlineMs), output: '' };
  const matched = inputs.filter((_, i) => outcome.results[i]);
  const rejected = inputs.filter((_, i) => !outcome.results[i]);
  const list = (xs: string[]) =>
    xs.length
      ? xs
          .slice(0, SHOWN)
          .map((x) => JSON.stringify(x))
          .join(', ') + (xs.length > SHOWN ? `, … (${xs.length - SHOWN} more)` : '')
      : '(none)';
  return {
    ok: true,
    output: `matches: ${list(matched)}\ndoes not match: ${list(rejected)}`,
    shape: { rows: matched.length },
  };
}

/** The regex Observer: matches a candidate against the visible inputs, describes the dialect and semantics. */
export function regexObserver(runtime: RegexRuntime): Observer<RegexPrepared> {
  return {
    async observe(prepared, candidate) {
      const compiled = runtime.compile(candidate);
      if (isVerdictError(compiled)) return { ok: false, error: compiled, output: '' };
      return observeRegex(runtime.matcher(), prepared.task.description, compiled, runtime.deadlineMs);
    },
    describe: async () =>
      [
        `Regex dialect: ${DIALECT_NAMES[runtime.candidateDialect]}.`,
        'Full-match semantics: the regex must match the entire line, as if wrapped in ^(?:…)$.',
        '`.` matches any character including line terminators; characters are UTF-16 code units.',
        'Flags i and s are honoured (s is implied); u and v are not supported.',
      ].join('\n'),
  };
}
