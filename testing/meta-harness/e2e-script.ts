/**
 * The scripted server's part in the Meta-Harness end-to-end test: one function answers both roles
 * at one endpoint, told apart by the request's model name. As the proposer it plays the built-in
 * agent's JSON actions deterministically from the conversation so far (list the store, read the
 * seed's harness.ts and a failed trace, write the report, one broken candidate and one good one,
 * done); as the solver it is right exactly when the prompt carries the good candidate's rule,
 * answering from the fixtures' gold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedReply } from '../model-server.ts';
import { printEcmascript } from '../../oracles/regex/ast.ts';
import { parseBrics } from '../../oracles/regex/brics.ts';

export const PROPOSER_MODEL = 'scripted-proposer';
export const SOLVER_MODEL = 'scripted-solver';
/** The rule the good candidate adds to the answer's instructions; the solver is right only with it. */
export const RULE = 'Restate every constraint of the statement to yourself before writing the program.';

/** The broken candidate: it imports node:fs, which validation must refuse. */
const BROKEN_HARNESS = [
  "import { defineHarness } from 'witness-harness';",
  "import { readFileSync } from 'node:fs';",
  '',
  'export default defineHarness({',
  "  name: 'reads-files',",
  '  async solve(ctx) {',
  "    ctx.log(readFileSync('notes.txt', 'utf8'));",
  '    const { program } = await ctx.model.answer();',
  '    return { program };',
  '  },',
  '});',
  '',
].join('\n');

/** The good candidate: the seed with one rule added to the answer's instructions, then one check through the observer. */
const GOOD_HARNESS = [
  "import { defineHarness } from 'witness-harness';",
  '',
  `const RULE = ${JSON.stringify(RULE)};`,
  '',
  'export default defineHarness({',
  "  name: 'restate-constraints',",
  '  async solve(ctx) {',
  '    const { program } = await ctx.model.answer({ system: RULE });',
  '    if (program === null) return { program: null };',
  '    const seen = await ctx.exec.observe(program);',
  "    ctx.log(seen.ok ? 'the program ran' : ctx.exec.format(seen));",
  '    return { program };',
  '  },',
  '});',
  '',
].join('\n');

interface Message {
  role: string;
  content: string;
}

/** The gold programs of the regex and SQL fixtures, by the statement's text. */
export function fixtureGold(root: string): { regex(user: string): string | null; sql(user: string): string | null } {
  const bird = JSON.parse(readFileSync(join(root, 'fixtures/bird/dev.json'), 'utf8')) as {
    question: string;
    SQL: string;
  }[];
  const lines = (file: string) =>
    readFileSync(join(root, 'fixtures/nl-rx', file), 'utf8')
      .trimEnd()
      .split('\n');
  const src = lines('src.txt');
  const targ = lines('targ.txt');
  // Longest first, so a statement that is a prefix of another is not matched by mistake.
  const bySize = <T>(items: T[], text: (t: T) => string) => [...items].sort((a, b) => text(b).length - text(a).length);
  const questions = bySize(bird, (q) => q.question);
  const statements = bySize(
    src.map((d, i) => ({ d, i })),
    (s) => s.d,
  );
  return {
    sql: (user) => questions.find((q) => user.includes(`Question: ${q.question}`))?.SQL ?? null,
    regex: (user) => {
      const hit = statements.find((s) => user.includes(`for: ${s.d}`));
      return hit ? printEcmascript(parseBrics(targ[hit.i] as string)) : null;
    },
  };
}

/** The reply to one request: the proposer's next action, or the solver's answer. */
export function scriptedReply(request: RecordedRequest, gold: ReturnType<typeof fixtureGold>): ScriptedReply {
  const messages = (request.body.messages ?? []) as unknown as Message[];
  if (request.body.model === PROPOSER_MODEL) return { content: JSON.stringify(proposerAction(messages)) };
  const all = messages.map((m) => m.content).join('\n');
  const knows = all.includes(RULE);
  const user = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const sql = gold.sql(user);
  if (sql !== null) return { content: '```sql\n' + (knows ? sql : 'SELECT 1') + '\n```' };
  const regex = gold.regex(user);
  if (regex !== null) return { content: '```regex\n' + (knows ? regex : 'nothing-like-this') + '\n```' };
  return { content: 'I do not know.' };
}

/** The agent's next action, from the briefing and the observations so far (one step per assistant reply). */
function proposerAction(messages: Message[]): Record<string, unknown> {
  const briefing = messages.find((m) => m.role === 'user')?.content ?? '';
  const iteration = Number(/^Iteration (\d+)/.exec(briefing)?.[1] ?? '1');
  const [broken, good] = [...briefing.matchAll(/candidates\/([\w-]+)\/harness\.ts/g)].map((m) => m[1] as string);
  const step = messages.filter((m) => m.role === 'assistant').length;
  const last = messages.at(-1)?.content ?? '';
  const proposal = (hypothesis: string, mechanism: string) =>
    JSON.stringify({ parent: 'seed-zero-shot', hypothesis, mechanism });
  const actions: (() => Record<string, unknown>)[] = [
    () => ({ action: 'list', path: 'candidates' }),
    () => ({ action: 'read', path: 'candidates/seed-zero-shot/harness.ts' }),
    () => ({ action: 'list', path: 'candidates/seed-zero-shot/traces' }),
    () => {
      const trace = /^(\S+\.json) \(/m.exec(last)?.[1] ?? 'missing.json';
      return { action: 'read', path: `candidates/seed-zero-shot/traces/${trace}`, limit: 400 };
    },
    () => ({
      action: 'write',
      path: `proposer/${iteration}/report.md`,
      content: '# Report\n\nThe zero-shot seed fails its tasks: the answers ignore constraints of the statement.\n',
    }),
    () => ({ action: 'write', path: `candidates/${broken}/harness.ts`, content: BROKEN_HARNESS }),
    () => ({
      action: 'write',
      path: `candidates/${broken}/proposal.json`,
      content: proposal('notes on disk help', 'reads a notes file'),
    }),
    () => ({ action: 'write', path: `candidates/${good}/harness.ts`, content: GOOD_HARNESS }),
    () => ({
      action: 'write',
      path: `candidates/${good}/proposal.json`,
      content: proposal(
        'restating the constraints fixes ignored ones',
        'a prompt rule, then a check through the observer',
      ),
    }),
  ];
  return (actions[step] ?? (() => ({ action: 'done' })))();
}
