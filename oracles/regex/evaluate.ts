/**
 * `witness eval nl-rx`: scores one predicted regex per line against `targ.txt` the way DeepRegex
 * papers do — an exact-string match counts, otherwise DFA equivalence decides.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialect } from './ast.ts';
import { compileCandidate, isVerdictError } from './candidate.ts';
import { compileRegex, type CompiledRegex } from './compile.ts';
import { detokenize } from './deepregex-tokens.ts';
import { compareLanguages } from './equivalence.ts';

export type ItemStatus =
  'exact' | 'equivalent' | 'not-equivalent' | 'invalid-prediction' | 'invalid-gold' | 'undecided';

export interface ItemResult {
  line: number;
  gold: string;
  prediction: string;
  correct: boolean;
  status: ItemStatus;
  /** Shortest string in exactly one language, when not equivalent. */
  counterexample?: { input: string; kind: 'false-positive' | 'false-negative' };
  message?: string;
}

export interface NlRxEvaluation {
  total: number;
  correct: number;
  accuracy: number;
  exactStringMatches: number;
  byStatus: Record<ItemStatus, number>;
  items: ItemResult[];
}

function lines(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const out = text.split(/\r?\n/);
  if (out.at(-1) === '') out.pop();
  return out;
}

export function evaluateNlRx(options: {
  data: string;
  predictions: string;
  dialect: Dialect;
  tokenized?: boolean;
  onProgress?: (done: number, total: number) => void;
}): NlRxEvaluation {
  const targFile = join(options.data, 'targ.txt');
  const golds = lines(targFile);
  const predictions = lines(options.predictions).map((p) => (options.tokenized ? detokenize(p) : p.trim()));
  if (predictions.length !== golds.length) {
    throw new Error(
      `${options.predictions} has ${predictions.length} lines but ${targFile} has ${golds.length}; give one prediction per line`,
    );
  }
  const items: ItemResult[] = [];
  for (let i = 0; i < golds.length; i++) {
    items.push(scoreItem(i + 1, (golds[i] as string).trim(), predictions[i] as string, options.dialect));
    if (options.onProgress && ((i + 1) % 500 === 0 || i + 1 === golds.length)) options.onProgress(i + 1, golds.length);
  }
  const byStatus: Record<ItemStatus, number> = {
    exact: 0,
    equivalent: 0,
    'not-equivalent': 0,
    'invalid-prediction': 0,
    'invalid-gold': 0,
    undecided: 0,
  };
  for (const item of items) byStatus[item.status]++;
  const correct = items.filter((i) => i.correct).length;
  return {
    total: items.length,
    correct,
    accuracy: items.length ? correct / items.length : 0,
    exactStringMatches: byStatus.exact,
    byStatus,
    items,
  };
}

function scoreItem(line: number, gold: string, prediction: string, dialect: Dialect): ItemResult {
  const base = { line, gold, prediction };
  if (prediction === gold) return { ...base, correct: true, status: 'exact' };
  let goldRegex: CompiledRegex;
  try {
    goldRegex = compileRegex(gold, 'brics');
  } catch (error) {
    return { ...base, correct: false, status: 'invalid-gold', message: (error as Error).message };
  }
  // The oracle's own rules for an answer: the length limit, syntax, automata past their budgets.
  const predicted = compileCandidate({ source: prediction, extraction: 'whole-reply' }, dialect);
  if (isVerdictError(predicted))
    return {
      ...base,
      correct: false,
      status: 'invalid-prediction',
      message: `${predicted.kind}: ${predicted.message}`,
    };
  const comparison = compareLanguages(goldRegex, predicted);
  if (!comparison.decided) return { ...base, correct: false, status: 'undecided', message: comparison.reason };
  if (comparison.equivalent) return { ...base, correct: true, status: 'equivalent' };
  const counterexample =
    comparison.falsePositive !== undefined
      ? { input: comparison.falsePositive, kind: 'false-positive' as const }
      : comparison.falseNegative !== undefined
        ? { input: comparison.falseNegative, kind: 'false-negative' as const }
        : undefined;
  return { ...base, correct: false, status: 'not-equivalent', ...(counterexample ? { counterexample } : {}) };
}
