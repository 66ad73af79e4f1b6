/**
 * Hidden tests per task (A-CEGIS): positives sampled from the gold language and negatives made by
 * mutating positives (delete, insert, substitute, swap, truncate) plus random printable strings,
 * kept only when the gold rejects them. When those cannot find enough (languages that exclude a
 * substring, like `~(.*ring.*)`, almost never yield a non-member by chance), the rest are sampled
 * from the complement automaton. Deterministic for a seed. Case ids are `p01…` / `n01…`.
 */
import type { Rng } from '../../core/random.ts';
import type { Witness } from '../../core/types.ts';
import { complementOf } from './automaton.ts';
import type { CompiledRegex } from './compile.ts';
import { sampleLanguage } from './sample.ts';

export interface RegexCase {
  id: string;
  input: string;
  /** Whether the gold accepts the input. */
  expected: boolean;
}

export interface HiddenTestOptions {
  positives: number;
  negatives: number;
  /** Longest sampled positive (default 24). */
  maxLength?: number;
}

const PRINTABLE = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
const ALNUM = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

/** A random character, biased to letters and digits as in NL-RX inputs. */
function randomChar(rng: Rng): string {
  return rng.chance(0.7) ? rng.pick(ALNUM) : rng.pick(PRINTABLE);
}

/** A random printable string of length 0..maxLength. */
export function randomString(rng: Rng, maxLength: number): string {
  const length = rng.between(0, maxLength);
  let s = '';
  for (let i = 0; i < length; i++) s += randomChar(rng);
  return s;
}

/** The string mutation operators used for negatives and for hardening probes. */
const STRING_MUTATIONS: Record<string, (s: string, rng: Rng) => string> = {
  delete: (s, rng) => (s.length === 0 ? s : removeAt(s, rng.int(s.length))),
  insert: (s, rng) => {
    const at = rng.int(s.length + 1);
    return s.slice(0, at) + randomChar(rng) + s.slice(at);
  },
  substitute: (s, rng) => {
    if (s.length === 0) return randomChar(rng);
    const at = rng.int(s.length);
    return s.slice(0, at) + randomChar(rng) + s.slice(at + 1);
  },
  swap: (s, rng) => {
    if (s.length < 2) return s;
    const at = rng.int(s.length - 1);
    return s.slice(0, at) + s.charAt(at + 1) + s.charAt(at) + s.slice(at + 2);
  },
  truncate: (s, rng) => (s.length === 0 ? s : s.slice(0, rng.int(s.length))),
};
const MUTATION_NAMES = Object.keys(STRING_MUTATIONS);

/** One random string mutation. */
export function mutateString(s: string, rng: Rng): string {
  const op = STRING_MUTATIONS[rng.pick(MUTATION_NAMES)] as (s: string, rng: Rng) => string;
  return op(s, rng);
}

function removeAt(s: string, at: number): string {
  return s.slice(0, at) + s.slice(at + 1);
}

/** The witness of a case the candidate gets wrong: too narrow (a missed member) or too broad. */
export function caseWitness(testCase: RegexCase, actual: boolean): Witness {
  return {
    kind: testCase.expected ? 'false-negative' : 'false-positive',
    label: testCase.expected ? 'too narrow' : 'too broad',
    input: testCase.input,
    expected: testCase.expected,
    actual,
    size: testCase.input.length,
    caseId: testCase.id,
  };
}

export function generateHiddenTests(gold: CompiledRegex, rng: Rng, options: HiddenTestOptions): RegexCase[] {
  const accepts = gold.test;
  if (!accepts) throw new Error('hidden tests need the gold regex as an automaton');
  const positives = sampleLanguage(gold, rng.fork('positives'), options.positives, {
    maxLength: options.maxLength ?? 24,
  });
  const negatives: string[] = [];
  const seen = new Set<string>(positives);
  const negRng = rng.fork('negatives');
  for (
    let attempt = 0;
    negatives.length < options.negatives && attempt < 400 * Math.max(1, options.negatives);
    attempt++
  ) {
    const fromPositive = positives.length > 0 && negRng.chance(0.75);
    let s = fromPositive ? negRng.pick(positives) : randomString(negRng, 12);
    if (fromPositive) {
      const edits = negRng.between(1, 2);
      for (let i = 0; i < edits; i++) s = mutateString(s, negRng);
    }
    if (seen.has(s)) continue;
    seen.add(s);
    if (!accepts(s)) negatives.push(s);
  }
  if (negatives.length < options.negatives && gold.dfa) {
    const complement: CompiledRegex = { ...gold, dfa: complementOf(gold.dfa) };
    for (const s of sampleLanguage(complement, rng.fork('complement'), options.negatives * 2, {
      maxLength: options.maxLength ?? 24,
    })) {
      if (negatives.length >= options.negatives) break;
      if (!seen.has(s) && !accepts(s)) {
        seen.add(s);
        negatives.push(s);
      }
    }
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  return [
    ...positives.map((input, i) => ({ id: `p${pad(i + 1)}`, input, expected: true })),
    ...negatives.map((input, i) => ({ id: `n${pad(i + 1)}`, input, expected: false })),
  ];
}
