/**
 * The regex steering catalog (what the steerable sim's mistakes respond to): five classes of
 * language-changing mistakes drawn from the mutation operators, one class that fails to compile,
 * the rule that addresses each and two misleading rules. See docs/meta-harness.md#steerable-sim.
 */
import type { Rng } from '../../core/random.ts';
import type { SteeringCatalog } from '../../core/steering.ts';

export const REGEX_STEERING: SteeringCatalog = {
  classes: [
    {
      name: 'quantifier',
      summary: 'a repetition off by one, dropped or added (`{3}` → `{4}`, `+` → `*`)',
      rule: "Count repetitions exactly: 'at least N' is {N,}, 'at most N' is {0,N}, 'exactly N' is {N}; never drop, add or loosen a quantifier.",
      keywords: [
        ['repetition', 'quantifier', 'repeat'],
        ['exact', 'count'],
      ],
    },
    {
      name: 'char-class',
      summary: 'the wrong character class (`[a-z]` for `[A-Z]`, `.` for `[0-9]`)',
      rule: 'Use exactly the character class the statement names: a letter is [A-Za-z], a lower-case letter [a-z], a capital [A-Z], a number [0-9], a vowel [AEIOUaeiou].',
      keywords: [
        ['character class', 'character set'],
        ['letter', 'vowel', 'digit', 'number'],
      ],
    },
    {
      name: 'literal',
      summary: 'a quoted string or character changed (`dog` → `truck`, `a` → `q`)',
      rule: 'Copy every quoted string of the statement literally, letter for letter.',
      keywords: [
        ['quoted', 'literal'],
        ['string', 'letter for letter', 'verbatim'],
      ],
    },
    {
      name: 'order',
      summary: 'a part dropped, duplicated or swapped with its neighbour',
      rule: 'Keep the parts of the pattern in the order the statement gives them, each one time only: never drop, duplicate or swap a part.',
      keywords: [
        ['order', 'sequence'],
        ['part', 'piece', 'element'],
      ],
    },
    {
      name: 'logic',
      summary: 'and / or / not confused (`&` ↔ `|`, a `~` added or lost, an alternative dropped)',
      rule: "Map the logic words exactly: 'and' / 'both' is &, 'or' / 'either' is | with every alternative, 'not' / 'without' is ~ around the part.",
      keywords: [
        ['logic', 'connective'],
        ['and', 'both'],
        ['not', 'without', 'negat'],
      ],
    },
    {
      name: 'syntax',
      summary: 'an unbalanced parenthesis: the regex does not compile',
      rule: 'Balance every parenthesis and bracket, and make sure the regex compiles before answering.',
      keywords: [
        ['balance', 'unbalanced', 'well-formed'],
        ['parenthes', 'bracket'],
      ],
      failsToRun: true,
    },
  ],
  harmful: [
    {
      name: 'loose-repetition',
      text: 'Prefer loose patterns: use * or + instead of exact counts, so the regex accepts more lines.',
      keywords: [
        ['loose', 'lenient'],
        ['instead of exact', 'rather than exact', 'avoid exact'],
      ],
      provokes: 'quantifier',
    },
    {
      name: 'dot-for-anything',
      text: 'Keep patterns simple: a dot matches anything, so prefer a dot over a list of allowed characters.',
      keywords: [['simple', 'simplif'], ['dot']],
      provokes: 'char-class',
    },
  ],
};

/** Mutation operators (oracles/regex/mutate.ts) behind each language-changing class. */
export const REGEX_CLASS_OPERATORS: Readonly<Record<string, readonly string[]>> = {
  quantifier: ['quantifier-change', 'quantifier-drop', 'quantifier-add'],
  'char-class': ['class-swap'],
  literal: ['word-replace', 'char-replace'],
  order: ['seq-delete', 'seq-duplicate', 'seq-swap'],
  logic: ['alt-drop', 'and-to-or', 'or-to-and', 'not-wrap', 'not-unwrap'],
};

/** The program with one parenthesis unbalanced (an opening one added at a random position or a closing one dropped). */
export function unbalanceParentheses(program: string, rng: Rng): string {
  const closers = [...program].flatMap((ch, i) => (ch === ')' ? [i] : []));
  if (closers.length > 0 && rng.chance(0.5)) {
    const at = rng.pick(closers);
    return program.slice(0, at) + program.slice(at + 1);
  }
  return `(${program}`;
}
