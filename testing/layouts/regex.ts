/**
 * Test support: small NL-RX-Turk folders in DeepRegex's layouts, generated in a temporary folder:
 * the raw `src.txt` / `targ.txt` and the tokenized `{src,targ}-{train,val,test}.txt` splits.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface NlRxPair {
  description: string;
  regex: string;
  /** The same pair as DeepRegex's split files spell it. */
  tokenized: { description: string; regex: string };
}

/** Six pairs in both spellings (DeepRegex numbers the quoted words <M0>, <M1>… and de-tokenizes <M0> as dog). */
export const NLRX_PAIRS: NlRxPair[] = [
  {
    description: "lines with the string 'dog'",
    regex: '.*dog.*',
    tokenized: { description: 'lines with the string <M0>', regex: '. * <M0> . *' },
  },
  {
    description: 'lines starting with a number',
    regex: '([0-9])(.*)',
    tokenized: { description: 'lines starting with a number', regex: '( [ <NUM> ] ) ( . * )' },
  },
  {
    description: 'lines ending with a vowel',
    regex: '(.*)([AEIOUaeiou])',
    tokenized: { description: 'lines ending with a vowel', regex: '( . * ) ( [ <VOW> ] )' },
  },
  {
    description: "lines with 'dog' at least 2 times, then a capital letter",
    regex: '(.*dog.*){2,}[A-Z].*',
    tokenized: {
      description: 'lines with <M0> at least 2 times , then a capital letter',
      regex: '( . * <M0> . * ) { 2 , } [ <CAP> ] . *',
    },
  },
  {
    description: "lines with 'dog' or 'truck'",
    regex: '.*(dog|truck).*',
    tokenized: { description: 'lines with <M0> or <M1>', regex: '. * ( <M0> | <M1> ) . *' },
  },
  {
    description: 'lines without a lower-case letter',
    regex: '~(.*[a-z].*)',
    tokenized: { description: 'lines without a lower-case letter', regex: '~ ( . * [ <LOW> ] . * )' },
  },
];

const lines = (values: string[]) => values.join('\n');

/** Writes the raw release: `src.txt` and `targ.txt` (no trailing newline, as NL-RX-Turk's). */
export function writeNlRxRaw(dir: string, pairs: NlRxPair[] = NLRX_PAIRS): { src: string; targ: string } {
  mkdirSync(dir, { recursive: true });
  const src = join(dir, 'src.txt');
  const targ = join(dir, 'targ.txt');
  writeFileSync(src, lines(pairs.map((p) => p.description)));
  writeFileSync(targ, lines(pairs.map((p) => p.regex)));
  return { src, targ };
}

/** Writes DeepRegex's tokenized split files (default: 3 train, 1 val, 2 test pairs). */
export function writeNlRxSplits(
  dir: string,
  splits: Record<'train' | 'val' | 'test', NlRxPair[]> = {
    train: NLRX_PAIRS.slice(0, 3),
    val: NLRX_PAIRS.slice(3, 4),
    test: NLRX_PAIRS.slice(4),
  },
): void {
  mkdirSync(dir, { recursive: true });
  for (const [split, pairs] of Object.entries(splits)) {
    writeFileSync(join(dir, `src-${split}.txt`), `${lines(pairs.map((p) => p.tokenized.description))}\n`);
    writeFileSync(join(dir, `targ-${split}.txt`), `${lines(pairs.map((p) => p.tokenized.regex))}\n`);
  }
}
