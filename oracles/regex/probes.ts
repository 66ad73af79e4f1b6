/**
 * Hardening probes for regexes (A-CEGIS): a pool of short generic strings, description tokens,
 * literals of gold and candidate, the existing examples, transforms of all of these (prefix,
 * suffix, repetition, concatenation, character mutation), `fc.stringMatching` samples of the gold
 * and the candidate (anchored, so they are members, not merely containing a match) and samples of
 * their automata. Deterministic for the rng; at most `max` probes.
 */
import fc from 'fast-check';
import { CharSet, DFA, JS, NFA } from 'refa';
import { hash32, type Rng } from '../../core/random.ts';
import type { CompiledRegex } from './compile.ts';
import { mutateString, randomString } from './hidden-tests.ts';
import { sampleLanguage } from './sample.ts';

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

const PRINTABLE_STAR = (() => {
  const nfa = NFA.fromCharSet(CharSet.fromRange(0xffff, { min: 0x20, max: 0x7e }));
  nfa.quantify(0, Infinity);
  const dfa = DFA.fromFA(nfa);
  dfa.minimize();
  return dfa;
})();
const printableForms = new WeakMap<CompiledRegex, RegExp | null>();

/**
 * The regex's members over printable ASCII, as an anchored RegExp for fc.stringMatching. Built
 * from the automaton: DFA-derived patterns full of negated classes (`[^\dd]`) would otherwise make
 * fast-check map over all 65,536 code units, which is very slow, and the probes unreadable.
 */
function printableForm(compiled: CompiledRegex): RegExp | null {
  if (printableForms.has(compiled)) return printableForms.get(compiled) ?? null;
  let form: RegExp | null = null;
  try {
    if (!samplingIsBounded(compiled)) form = null;
    else if (compiled.dfa) {
      const restricted = DFA.fromIntersection(compiled.dfa, PRINTABLE_STAR);
      restricted.minimize();
      const literal = JS.toLiteral(restricted.toRegex());
      form = new RegExp(`^(?:${literal.source})$`, literal.flags);
    } else if (compiled.dialect === 'ecmascript') {
      form = new RegExp(`^(?:${compiled.source})$`, compiled.flags.replace(/[gyd]/g, ''));
    }
  } catch {
    form = null;
  }
  printableForms.set(compiled, form);
  return form;
}

/** DFA → regex conversion grows fast with the states; fc.stringMatching honours every count. */
const MAX_SAMPLED_DFA_STATES = 2_000;
const MAX_SAMPLED_SOURCE = 2_000;
const MAX_SAMPLED_COUNT = 64;

/**
 * Whether fc.stringMatching can sample this regex in bounded time and memory: a DFA of modest
 * size, or a short source whose counted repetitions are small (`(x){2147483647}` would make
 * fast-check build a string of two billion copies).
 */
function samplingIsBounded(compiled: CompiledRegex): boolean {
  if (compiled.dfa) return (compiled.table?.states ?? Infinity) <= MAX_SAMPLED_DFA_STATES;
  if (compiled.source.length > MAX_SAMPLED_SOURCE) return false;
  for (const match of compiled.source.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    if (Number(match[1]) > MAX_SAMPLED_COUNT || Number(match[2] || 0) > MAX_SAMPLED_COUNT) return false;
  }
  return true;
}

const FC_SAMPLES = 40;
const fcSampleCache = new WeakMap<CompiledRegex, string[]>();

/**
 * `fc.stringMatching` members of a regex, drawn once per compiled regex with a seed derived from its
 * source (so the same regex always gets the same samples, whichever episode asks), then cached:
 * sampling DFA-derived patterns is slow in fast-check, and the same golds and candidates recur.
 */
function stringMatchingSamples(compiled: CompiledRegex): string[] {
  const cached = fcSampleCache.get(compiled);
  if (cached) return cached;
  const form = printableForm(compiled);
  let samples: string[] = [];
  if (form !== null) {
    try {
      samples = [
        ...new Set(
          fc.sample(fc.stringMatching(form, { size: 'xsmall' }), {
            seed: hash32(compiled.source),
            numRuns: FC_SAMPLES,
          }),
        ),
      ];
    } catch {
      samples = [];
    }
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
  sampled.push(...rng.shuffle(stringMatchingSamples(input.gold)).slice(0, share));
  sampled.push(...rng.shuffle(stringMatchingSamples(input.candidate)).slice(0, share));
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
