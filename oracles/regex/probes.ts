/**
 * Hardening probes for regexes (A-CEGIS): a pool of short generic strings, description tokens,
 * literals of gold and candidate, the existing examples, transforms of all of these (prefix,
 * suffix, repetition, concatenation, character mutation), `fc.stringMatching` samples of the gold
 * and the candidate (anchored, so they are members, not merely containing a match) and samples of
 * their automata. Deterministic for the rng; at most `max` probes.
 */
import fc from 'fast-check';
import type { Rng } from '../../core/random.ts';
import type { CompiledRegex } from './compile.ts';
import { mutateString, randomString } from './hidden-tests.ts';
import { sampleLanguage } from './sample.ts';

export interface ProbePoolInput {
  description: string;
  gold: CompiledRegex;
  /** The gold as an ECMAScript pattern, for fc.stringMatching. */
  goldEcmascript: string | null;
  candidate: CompiledRegex;
  examples: string[];
  rng: Rng;
  max: number;
}

const GENERIC = ['', ' ', 'a', 'A', 'z', 'Z', '0', '9', '.', '!', '_', 'aa', 'aA', 'a0', '0a', 'A0', 'ab', 'abc', '00', '123', 'a b'];

/** Words and quoted strings of a description ("lines with 'dog' before a number" → dog, lines, …). */
export function descriptionTokens(description: string): string[] {
  const quoted = [...description.matchAll(/['"“‘]([^'"”’]+)['"”’]/g)].map((m) => m[1] as string);
  const words = description.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  return [...quoted, ...words];
}

/** Literal runs of letters and digits in a pattern, outside classes and escapes. */
export function patternLiterals(source: string): string[] {
  const plain = source.replace(/\\./g, ' ').replace(/\[(?:\\.|[^\]\\])*\]/g, ' ').replace(/\{\d+(,\d*)?\}/g, ' ');
  return [...plain.matchAll(/[A-Za-z0-9]+/g)].map((m) => m[0]);
}

function stringMatchingSamples(source: string | null, flags: string, seed: number, count: number): string[] {
  if (source === null || count <= 0) return [];
  try {
    const re = new RegExp(`^(?:${source})$`, flags.replace(/[gyd]/g, '').includes('s') ? flags : `${flags}s`);
    return fc.sample(fc.stringMatching(re, { size: 'xsmall' }), { seed, numRuns: count });
  } catch {
    return [];
  }
}

export function buildProbePool(input: ProbePoolInput): string[] {
  const { rng, max } = input;
  const base = new Set<string>([
    ...GENERIC,
    ...descriptionTokens(input.description),
    ...patternLiterals(input.gold.source),
    ...patternLiterals(input.candidate.source),
    ...input.examples,
  ]);
  const sampled: string[] = [];
  const share = Math.max(4, Math.floor(max / 8));
  sampled.push(...stringMatchingSamples(input.goldEcmascript, '', rng.int(2 ** 31), share));
  if (input.candidate.dialect === 'ecmascript') {
    sampled.push(...stringMatchingSamples(input.candidate.source, input.candidate.flags, rng.int(2 ** 31), share));
  }
  if (input.gold.test) sampled.push(...sampleLanguage(input.gold, rng.fork('gold'), share, { maxLength: 16 }));
  if (input.candidate.test) sampled.push(...sampleLanguage(input.candidate, rng.fork('candidate'), share, { maxLength: 16 }));
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
