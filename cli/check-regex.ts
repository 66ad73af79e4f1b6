/** `witness check regex`: one candidate against one gold — hidden-test verdict, equivalence, shortest counterexample. */
import type { Dialect } from '../oracles/regex/ast.ts';
import { boundedMessage } from '../oracles/regex/candidate.ts';
import { compileRegex, parseRegexLiteral } from '../oracles/regex/compile.ts';
import { compareLanguages, type Comparison } from '../oracles/regex/equivalence.ts';
import { regexOracle } from '../oracles/regex/oracle.ts';
import type { Verdict } from '../core/types.ts';

export interface CheckRegexInput {
  gold: string;
  candidate: string;
  goldDialect: Dialect;
  candidateDialect: Dialect;
  seed: number;
}

export interface CheckRegexResult {
  gold: string;
  candidate: string;
  goldDialect: Dialect;
  candidateDialect: Dialect;
  /** Hidden-test verdict as the benchmark would give it (12 + 12 cases generated from the gold). */
  verdict: Pick<Verdict, 'pass' | 'witnesses' | 'error'> & { failed: number; total: number };
  equivalence: Comparison | { decided: false; reason: string };
}

export async function checkRegex(input: CheckRegexInput): Promise<CheckRegexResult> {
  const oracle = regexOracle({
    candidateDialect: input.candidateDialect,
    goldDialect: input.goldDialect,
    seed: input.seed,
  });
  const prepared = await oracle.prepare({ id: 'cli', benchmark: 'check', description: '', gold: input.gold });
  const literal = input.candidateDialect === 'ecmascript' ? parseRegexLiteral(input.candidate) : null;
  const verdict = await oracle.check(prepared, {
    source: input.candidate,
    extraction: literal ? 'literal' : 'whole-reply',
  });
  let equivalence: CheckRegexResult['equivalence'];
  if (verdict.error) {
    equivalence = { decided: false, reason: `candidate: ${verdict.error.message}` };
  } else {
    const candidate = literal
      ? compileRegex(literal.source, 'ecmascript', literal.flags)
      : compileRegex(input.candidate, input.candidateDialect);
    equivalence = compareLanguages(prepared.gold, candidate);
  }
  const failed = verdict.cases.filter((c) => !c.pass).length;
  return {
    gold: input.gold,
    candidate: input.candidate,
    goldDialect: input.goldDialect,
    candidateDialect: input.candidateDialect,
    verdict: {
      pass: verdict.pass,
      failed,
      total: verdict.cases.length,
      witnesses: verdict.witnesses,
      ...(verdict.error ? { error: verdict.error } : {}),
    },
    equivalence,
  };
}

/**
 * Exit status: 0 = the languages are equal; 1 = they differ, or the candidate fails the hidden
 * tests or cannot run; 3 = the hidden tests pass but equivalence is undecided (no success claimed).
 */
export function checkRegexExitCode(result: CheckRegexResult): 0 | 1 | 3 {
  const e = result.equivalence;
  if (e.decided) return e.equivalent ? 0 : 1;
  return result.verdict.pass ? 3 : 1;
}

export function formatCheckRegex(result: CheckRegexResult): string {
  const lines = [
    `gold       ${boundedMessage(result.gold, 200)}  (${result.goldDialect})`,
    `candidate  ${boundedMessage(result.candidate, 200)}  (${result.candidateDialect})`,
  ];
  const v = result.verdict;
  if (v.error) lines.push(`verdict    ${v.error.kind}: ${v.error.message}`);
  else lines.push(`verdict    ${v.pass ? 'pass' : 'fail'} on hidden tests (${v.total - v.failed}/${v.total} correct)`);
  for (const w of v.witnesses.slice(0, 4)) lines.push(`           ${w.label}: ${JSON.stringify(w.input)}`);
  const e = result.equivalence;
  if (!e.decided) {
    lines.push(`equivalent unknown (${e.reason})`);
    if (v.pass)
      lines.push('undecided: the hidden tests pass, but the languages could not be compared, so this is not a success');
  } else if (e.equivalent) lines.push('equivalent yes (same language)');
  else {
    lines.push('equivalent no');
    if (e.falsePositive !== undefined)
      lines.push(`           shortest false positive (too broad): ${JSON.stringify(e.falsePositive)}`);
    if (e.falseNegative !== undefined)
      lines.push(`           shortest false negative (too narrow): ${JSON.stringify(e.falseNegative)}`);
    if (e.partial)
      lines.push(
        '           (the search stopped at its budget after the first difference: the other direction was not searched in full)',
      );
  }
  return lines.join('\n');
}
