/**
 * What the sim proposer reads in a failed trace: the task statement (the first user message), the
 * final program and the oracle's verdict on the search pool (an execution error, counterexamples),
 * turned into a symptom — the kind of mistake a reader of the trace can see. Pure functions.
 */

/** A kind of mistake recognisable from a failed trace. */
export type Symptom =
  | 'does-not-run'
  | 'literal'
  | 'count'
  | 'char-class'
  | 'logic'
  | 'structure'
  | 'unknown-name'
  | 'distinct'
  | 'aggregate'
  | 'ordering'
  | 'join'
  | 'condition'
  | 'wrong-result';

/** The languages the diagnosis tells apart; any other gets the generic symptoms. */
export type DiagnosisLanguage = 'regex' | 'sql' | 'other';

/** General advice per symptom, in the proposer's own words (never a task's literals). */
export const ADVICE: Readonly<Record<Symptom, string>> = {
  'does-not-run':
    'Make sure the program is well-formed before answering: balance every parenthesis and bracket, and use only names the environment has.',
  literal: 'Copy each quoted string of the statement literally, letter for letter, into the program.',
  count:
    "Count repetitions exactly as the statement states them: 'at least N' is {N,}, 'at most N' is {0,N}, 'exactly N' is {N}; never loosen a quantifier.",
  'char-class':
    'Use the character class the statement names: a letter, a lower-case letter, a capital, a vowel and a digit or number each has its own class.',
  logic:
    "Translate logic words faithfully: 'and' or 'both' is &, 'or' is | with every alternative, 'not' or 'without' is ~ around its part.",
  structure:
    'Keep every part of the pattern in the order the statement gives it, each part once: do not drop or swap a part.',
  'unknown-name': 'Use only table and column names that the schema lists, spelled exactly as they are spelled there.',
  distinct: 'Write DISTINCT only when the question asks for unique or different values, never by default.',
  aggregate:
    'Pick the aggregate function the wording asks for: MAX for the highest or largest, MIN for the lowest or smallest, COUNT(DISTINCT …) for how many different values.',
  ordering:
    'For the highest, top N or first N rows use ORDER BY in the direction the question asks and LIMIT to exactly that many rows.',
  join: 'Join tables only on the foreign key columns the schema has declared, never on columns that merely share a name.',
  condition:
    'Keep every condition of the question and give each one the exact comparison it states (more than, at least, before, after).',
  'wrong-result':
    'Answer exactly what the question asks: keep every condition it states, and add no columns, rows or grouping it does not ask for.',
};

/** The parts of a stored trajectory the diagnosis reads (everything else is ignored). */
export interface TraceView {
  taskId: string;
  statement: string;
  program: string | null;
  pass: boolean;
  /** The verdict's error (the program does not compile or run), if any. */
  error: string | null;
  /** Counterexample labels ("too broad", "too narrow", …). */
  witnessLabels: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a trace file's JSON as a TraceView; null when it is not a trajectory. */
export function viewTrace(trace: unknown): TraceView | null {
  if (!isObject(trace) || !Array.isArray(trace.turns)) return null;
  const turns = trace.turns.filter(isObject);
  const solve = turns.filter((t) => t.phase === 'solve');
  const last = solve.at(-1);
  const firstMessages = Array.isArray(turns[0]?.messages) ? (turns[0]?.messages as unknown[]) : [];
  const user = firstMessages.filter(isObject).find((m) => m.role === 'user');
  const verdict = isObject(last?.verdict) ? last.verdict : {};
  const candidate = isObject(last?.candidate) ? last.candidate : {};
  const error = isObject(verdict.error) ? String(verdict.error.message ?? verdict.error.kind ?? 'error') : null;
  const witnesses = Array.isArray(verdict.witnesses) ? verdict.witnesses.filter(isObject) : [];
  return {
    taskId: String(trace.taskId ?? ''),
    statement: typeof user?.content === 'string' ? user.content : '',
    program: typeof candidate.source === 'string' ? candidate.source : null,
    pass: verdict.pass === true,
    error,
    witnessLabels: witnesses.map((w) => String(w.label ?? w.kind ?? '')),
  };
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const has = (text: string, pattern: RegExp) => pattern.test(text);

/** The statement's quoted strings ('dog', "dog"). */
function quoted(statement: string): string[] {
  return [...statement.matchAll(/'([^'\n]{1,40})'|"([^"\n]{1,40})"/g)].map((m) => (m[1] ?? m[2]) as string);
}

/** The counts a statement names (digits and number words). */
function counts(statement: string): number[] {
  const words = statement.toLowerCase().match(/\b[a-z]+\b|\b\d+\b/g) ?? [];
  return words.flatMap((w) =>
    /^\d+$/.test(w) ? [Number(w)] : NUMBER_WORDS.includes(w) ? [NUMBER_WORDS.indexOf(w)] : [],
  );
}

/** The question of a SQL prompt (the line after "Question:"), else the whole statement. */
const sqlQuestion = (statement: string) => /Question: ([^\n]*)/.exec(statement)?.[1] ?? statement;

/** The symptom of a failed SQL trace: the clause of the program most likely to be wrong, by the question's words. */
function sqlSymptom(view: TraceView, program: string): Symptom {
  if (view.error !== null) return /no such (column|table)/i.test(view.error) ? 'unknown-name' : 'does-not-run';
  const question = sqlQuestion(view.statement).toLowerCase();
  const sql = program.toUpperCase();
  if (has(question, /\b(different|unique|distinct)\b/) !== has(sql, /\bDISTINCT\b/)) return 'distinct';
  if (has(sql, /\b(MIN|MAX|COUNT)\s*\(/)) return 'aggregate';
  if (has(sql, /\bORDER\s+BY\b|\bLIMIT\b/)) return 'ordering';
  if (has(sql, /\bWHERE\b/)) return 'condition';
  if (has(sql, /\bJOIN\b/)) return 'join';
  return 'wrong-result';
}

/** The text without its `{{…}}` placeholders (`{{` up to the next `}`, which must be `}}`), in one scan. */
function withoutPlaceholders(text: string): string {
  let out = '';
  let copied = 0;
  for (let at = text.indexOf('{{'); at !== -1;) {
    const close = text.indexOf('}', at + 2);
    if (close === -1) break; // no `}` after this `{{`, so none after a later one
    if (text[close + 1] !== '}') {
      at = text.indexOf('{{', close + 1); // every `{{` before `close` fails at it too
      continue;
    }
    out += text.slice(copied, at);
    copied = close + 2;
    at = text.indexOf('{{', copied);
  }
  return out + text.slice(copied);
}

/** What follows the first `for: ` up to the next blank line (the task of a statement), else the statement. */
function taskOf(statement: string): string {
  const at = statement.indexOf('for: ');
  if (at === -1) return statement;
  const end = statement.indexOf('\n\n', at + 5);
  return statement.slice(at + 5, end === -1 ? undefined : end);
}

/** The symptom of one failed regex or SQL trace, read from the statement, the program and the verdict. */
export function symptomOf(view: TraceView, language: DiagnosisLanguage): Symptom {
  if (language === 'sql' && view.program !== null) return sqlSymptom(view, view.program);
  if (view.error !== null || view.program === null) return 'does-not-run';
  if (language !== 'regex') return 'wrong-result';
  const statement = withoutPlaceholders(view.statement);
  const task = taskOf(statement);
  const program = view.program;
  if (quoted(task).some((q) => !program.includes(q))) return 'literal';
  const stated = counts(task);
  const used = [...program.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].flatMap((m) => [
    Number(m[1]),
    ...(m[2] ? [Number(m[2])] : []),
  ]);
  if (stated.length > 0 && (used.length === 0 || used.some((n) => n > 0 && !stated.includes(n)))) return 'count';
  const lower = task.toLowerCase();
  const classes: [RegExp, RegExp][] = [
    [/\bcapital|upper-?case/, /A-Z/],
    [/\blower-?case/, /a-z/],
    [/\bvowel/, /AEIOU|aeiou/],
    [/\b(number|digit)/, /0-9|\\d/],
    [/\bletter/, /A-Z|a-z/],
  ];
  if (classes.some(([said, cls]) => has(lower, said) && !has(program, cls))) return 'char-class';
  const logic =
    (has(lower, /\band\b|\bboth\b/) && !program.includes('&')) ||
    (has(lower, /\bnot\b|\bwithout\b/) && !program.includes('~'));
  if (logic || (has(lower, /\bor\b|\beither\b/) && !program.includes('|'))) return 'logic';
  return 'structure';
}

/** Symptoms of the failed traces, most frequent first (ties: the order of the Symptom type). */
export function rankSymptoms(
  views: readonly TraceView[],
  language: DiagnosisLanguage,
): { symptom: Symptom; count: number }[] {
  const order = Object.keys(ADVICE) as Symptom[];
  const tally = new Map<Symptom, number>();
  for (const v of views) if (!v.pass) tally.set(symptomOf(v, language), (tally.get(symptomOf(v, language)) ?? 0) + 1);
  return [...tally]
    .map(([symptom, count]) => ({ symptom, count }))
    .sort((a, b) => b.count - a.count || order.indexOf(a.symptom) - order.indexOf(b.symptom));
}
