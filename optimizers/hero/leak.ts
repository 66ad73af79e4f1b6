/**
 * HERO-O's leak filter: a proposed prompt must state reusable rules, not instance fixes. It is
 * rejected when it mentions an instance specific of a diagnosis task — a quoted literal of its
 * statement or programs, a number of two or more digits from its programs, or an identifier of its
 * programs (three characters or more) that is neither in the environment's schema text nor a
 * keyword of the program language — or quotes a diagnosis statement whole (24 characters or more). A token that occurs in more than a third of the diagnosis
 * tasks (and in at least two) is shared vocabulary of the benchmark (a vowel class, a common
 * column), not an instance specific. Matching is case-insensitive and on whole words.
 */

export interface LeakSource {
  /** The task statement. */
  statement: string;
  /** Programs seen for the task (the model's attempts; the gold where it is known offline). */
  programs: string[];
  /** Schema / environment text: identifiers found here are vocabulary, not leaks. */
  schema: string;
}

const KEYWORDS = new Set(
  (
    'select from where group by order having limit offset join left right inner outer cross on as and or not null is in like between ' +
    'distinct count sum avg min max case when then else end union all exists asc desc cast with recursive values ' +
    'match optional return call yield create merge delete set remove detach unwind skip collect size labels type ' +
    'def return import for while if elif else try except finally class lambda yield none true false pass break continue raise assert ' +
    'len range print list dict str int float bool tuple self numpy pandas'
  ).split(' '),
);

function words(text: string): Set<string> {
  return new Set([...text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)].map((m) => m[0].toLowerCase()));
}

function quoted(text: string): string[] {
  return [...text.matchAll(/'([^'\n]{2,})'|"([^"\n]{2,})"/g)]
    .map((m) => (m[1] ?? m[2] ?? '').trim())
    .filter((s) => s.length >= 2);
}

/** The instance specifics of the diagnosis tasks, lower-cased. */
export function leakTokens(sources: readonly LeakSource[]): Set<string> {
  const occurrences = new Map<string, number>();
  for (const source of sources) {
    const vocabulary = words(source.schema);
    const mine = new Set<string>();
    const statement = source.statement.trim().toLowerCase().replace(/\s+/g, ' ');
    if (statement.length >= 24) mine.add(statement);
    for (const literal of [...quoted(source.statement), ...source.programs.flatMap(quoted)])
      mine.add(literal.toLowerCase());
    for (const program of source.programs) {
      for (const m of program.matchAll(/\b\d{2,}(?:\.\d+)?\b/g)) mine.add(m[0]);
      for (const word of words(program.replace(/'[^']*'|"[^"]*"/g, ' '))) {
        if (word.length >= 3 && !vocabulary.has(word) && !KEYWORDS.has(word)) mine.add(word);
      }
    }
    for (const token of mine) occurrences.set(token, (occurrences.get(token) ?? 0) + 1);
  }
  const shared = (count: number) => count >= 2 && count > sources.length / 3;
  return new Set([...occurrences].filter(([, count]) => !shared(count)).map(([token]) => token));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The leak tokens a candidate prompt mentions (empty = clean). */
export function findLeaks(prompt: string, leaks: ReadonlySet<string>): string[] {
  const lower = prompt.toLowerCase().replace(/\s+/g, ' ');
  return [...leaks].filter((leak) => new RegExp(`(^|[^a-z0-9_])${escape(leak)}($|[^a-z0-9_])`).test(lower)).sort();
}
