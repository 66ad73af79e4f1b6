/**
 * DeepRegex's tokenized form (its `{src,targ}-{train,val,test}.txt` splits): tokens separated by
 * spaces, the quoted words as placeholders `<M0>`..`<M3>` (dog, truck, ring, lake) and the
 * character classes as `<VOW>`, `<NUM>`, `<LET>`, `<CAP>`, `<LOW>` inside `[ ]`.
 */

const WORDS: [RegExp, string][] = [
  [/<M0>/g, 'dog'],
  [/<M1>/g, 'truck'],
  [/<M2>/g, 'ring'],
  [/<M3>/g, 'lake'],
];

const CLASSES: [RegExp, string][] = [
  [/<VOW>/g, 'AEIOUaeiou'],
  [/<NUM>/g, '0-9'],
  [/<LET>/g, 'A-Za-z'],
  [/<CAP>/g, 'A-Z'],
  [/<LOW>/g, 'a-z'],
];

/** A tokenized regex back to a raw one: placeholders substituted, spaces deleted (as DeepRegex's regexDFAEquals.py). */
export function detokenize(text: string): string {
  let s = text;
  for (const [pattern, value] of [...WORDS, ...CLASSES]) s = s.replace(pattern, value);
  return s.replace(/ /g, '');
}

/** A tokenized description back to prose: `<M0>` becomes 'dog' (quoted), no space before punctuation. */
export function detokenizeDescription(text: string): string {
  let s = text;
  for (const [pattern, value] of WORDS) s = s.replace(pattern, `'${value}'`);
  return (
    s
      // Each run of spaces once (a search for spaces then punctuation would rescan long runs).
      .replace(/ +/g, (spaces: string, at: number, all: string) =>
        ',.;:?!'.includes(all[at + spaces.length] || '_') ? '' : spaces,
      )
      .replace(/ {2,}/g, ' ')
      .trim()
  );
}

/** True when a line uses DeepRegex's placeholders (a tokenized file given where a raw one belongs). */
export const hasPlaceholders = (text: string): boolean => /<(M[0-3]|VOW|NUM|LET|CAP|LOW)>/.test(text);
