/**
 * Hardening probes for regexes (A-CEGIS): a pool of short generic strings, description tokens,
 * literals of gold and candidate, the existing examples, transforms of all of these (prefix,
 * suffix, repetition, concatenation, character mutation), fast-check-driven walks of the gold's
 * and the candidate's automata (members) and samples of their automata. Deterministic for the
 * rng; at most `max` probes.
 */
import fc from 'fast-check';
import { hash32, type Rng } from '../../core/random.ts';
import type { CompiledRegex } from './compile.ts';
import { mutateString, randomString } from './hidden-tests.ts';
import { sampleLanguage, walkByChoices } from './sample.ts';

export interface ProbePoolInput {
  description: string;
  gold: CompiledRegex;
  candidate: CompiledRegex;
  examples: string[];
  rng: Rng;
  max: number;
}

export const GENERIC_PROBES = [
  '',
  ' ',
  'a',
  'A',
  'z',
  'Z',
  '0',
  '9',
  '.',
  '!',
  '_',
  'aa',
  'aA',
  'a0',
  '0a',
  'A0',
  'ab',
  'abc',
  '00',
  '123',
  'a b',
];

/** Words and quoted strings of a description ("lines with 'dog' before a number" → dog, lines, …). */
export function descriptionTokens(description: string): string[] {
  const quoted = quotedRuns(description);
  const words = description.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  return [...quoted, ...words];
}

const OPENING_QUOTES = '\'"“‘';
const CLOSING_QUOTES = '\'"”’';

/** The texts between an opening quote and the next closing one (a scan: linear in the text). */
function quotedRuns(text: string): string[] {
  const runs: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (!OPENING_QUOTES.includes(text[i] as string)) continue;
    let close = i + 1;
    while (close < text.length && !CLOSING_QUOTES.includes(text[close] as string)) close++;
    if (close === text.length) break; // no closing quote after this one, so none after any later one
    if (close > i + 1) {
      runs.push(text.slice(i + 1, close));
      i = close;
    }
  }
  return runs;
}

/**
 * `[…]` classes replaced by a space: a `[` up to the next `]`. A line terminator or a lone `\`
 * (what is left of escapes) stops a class; every `[` before that stop fails with it, so the scan
 * goes on after it (linear in the text).
 */
function blankClasses(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '[') continue;
    let end = i + 1;
    while (end < text.length && text[end] !== ']' && text[end] !== '\\') end++;
    if (text[end] !== ']') {
      i = end;
      continue;
    }
    out += text.slice(copied, i) + ' ';
    copied = end + 1;
    i = end;
  }
  return out + text.slice(copied);
}

/** Literal runs of letters and digits in a pattern, outside classes and escapes. */
export function patternLiterals(source: string): string[] {
  const plain = blankClasses(source.replace(/\\./g, ' ')).replace(/\{\d+(,\d*)?\}/g, ' ');
  return [...plain.matchAll(/[A-Za-z0-9]+/g)].map((m) => m[0]);
}

const FC_SAMPLES = 40;
/** Longest walk fast-check draws (the completion to an accepting state may add to it). */
const FC_WALK_LENGTH = 24;
const fcSampleCache = new WeakMap<CompiledRegex, string[]>();

/**
 * Members of a regex drawn by fast-check: each sample is a walk through the regex's minimal DFA
 * whose choices (which edge, which character of it) are an `fc.array` of numbers, completed along
 * a shortest path to acceptance — linear in the walk, whatever the automaton. Seeded from the
 * source (the same regex gets the same samples in every episode) and cached per compiled regex.
 * A regex without a DFA (V8 matches it) gets none: fast-check's own `stringMatching` parses and
 * expands a pattern with no bound on its work (a 1,000-character pattern from a 25-state DFA did
 * not finish), so it never sees a candidate's or a derived pattern.
 */
function fastCheckSamples(compiled: CompiledRegex): string[] {
  const cached = fcSampleCache.get(compiled);
  if (cached) return cached;
  let samples: string[] = [];
  if (compiled.dfa) {
    const walks = fc.array(fc.nat(), { maxLength: FC_WALK_LENGTH, size: 'xsmall' });
    const drawn = fc.sample(walks, { seed: hash32(compiled.source), numRuns: FC_SAMPLES });
    samples = [...new Set(drawn.map((choices) => walkByChoices(compiled, choices)).filter((s) => s !== null))];
  }
  fcSampleCache.set(compiled, samples);
  return samples;
}

export function buildProbePool(input: ProbePoolInput): string[] {
  const { rng, max } = input;
  const base = new Set<string>([
    ...GENERIC_PROBES,
    ...descriptionTokens(input.description),
    ...patternLiterals(input.gold.source),
    ...patternLiterals(input.candidate.source),
    ...input.examples,
  ]);
  const sampled: string[] = [];
  const share = Math.max(4, Math.floor(max / 8));
  sampled.push(...rng.shuffle(fastCheckSamples(input.gold)).slice(0, share));
  sampled.push(...rng.shuffle(fastCheckSamples(input.candidate)).slice(0, share));
  if (input.gold.test) sampled.push(...sampleLanguage(input.gold, rng.fork('gold'), share, { maxLength: 16 }));
  if (input.candidate.test)
    sampled.push(...sampleLanguage(input.candidate, rng.fork('candidate'), share, { maxLength: 16 }));
  for (const s of sampled) base.add(s);

  // Half the budget for the seeds themselves, the rest for their transforms.
  const seeds = [...base];
  const pool = new Set<string>(rng.shuffle(seeds).slice(0, Math.ceil(max / 2)));
  const transforms: ((s: string) => string)[] = [
    (s) => randomString(rng, 3) + s,
    (s) => s + randomString(rng, 3),
    (s) => s.repeat(rng.between(2, 3)),
    (s) => s + rng.pick(seeds),
    (s) => mutateString(s, rng),
    (s) => mutateString(mutateString(s, rng), rng),
  ];
  for (let attempt = 0; pool.size < max && attempt < max * 8; attempt++) {
    pool.add(rng.pick(transforms)(rng.pick(seeds)));
  }
  return [...pool];
}
