/**
 * An oracle of one's own from a name and a check: `defineOracle` supplies what the definition
 * leaves out. The extractor takes the reply's code block (the block in the oracle's language, else
 * an unlabelled one, else the last), or the whole reply when it has none; witnesses render as
 * plain lines of their input, expected and actual values. Hardening, the observer for HERO-T and
 * the sim's hooks are offered only when given: a success is then hardened by nothing, HERO-T sees
 * no executions, and the `sim` model refuses the oracle's tasks by name.
 */
import { pickCodeBlock } from './extract.ts';
import type { FeedbackRenderer, Oracle, OracleDefinition, PreparedTask } from './oracle.ts';
import type { Candidate, Json, Verdict, VerdictError, Witness } from './types.ts';

/** The fence language of an oracle that names none. */
const PLAIN = 'text';

/** The default extractor: the reply's code block, else the whole reply, or null for an empty reply. */
export function fencedOrWholeReply(reply: string, language: string): Candidate | null {
  const block = pickCodeBlock(reply, [language]);
  if (block) return block.body.trim() ? { source: block.body.trim(), extraction: 'code-block' } : null;
  const whole = reply.trim();
  return whole ? { source: whole, extraction: 'whole-reply' } : null;
}

const shown = (value: Json) => JSON.stringify(value);

/** The default renderer: each witness as its label, input, expected and actual values. */
function plainRenderer(language: string): FeedbackRenderer {
  return {
    witness: (w: Witness) =>
      `${w.label}: input ${shown(w.input)}` +
      `${w.expected === undefined ? '' : `, expected ${shown(w.expected)}`}` +
      `${w.actual === undefined ? '' : `, got ${shown(w.actual)}`}`,
    failureSummary: (v: Verdict) => {
      const failed = v.cases.filter((c) => !c.pass).length;
      return v.cases.length ? `${failed} of ${v.cases.length} checks fail.` : 'The answer is not right.';
    },
    error: (e: VerdictError) => `${e.kind} error: ${e.message}`,
    retry: `Give the whole corrected answer in a \`\`\`${language} block.`,
  };
}

/**
 * The whole Oracle face of a definition. A complete oracle (every built-in one) comes back as it
 * is; otherwise the defaults above fill the gaps, and a task is prepared as itself with no case
 * list of its own (its verdicts' cases are what `check` returns).
 */
export function defineOracle<P extends PreparedTask = PreparedTask>(definition: OracleDefinition<P>): Oracle<P> {
  if (isComplete(definition)) return definition;
  const language = definition.language ?? PLAIN;
  const render = { ...plainRenderer(language), ...definition.render };
  const d = definition;
  const oracle: Oracle<P> = {
    name: d.name,
    language,
    settings: d.settings?.bind(d) ?? (() => ({})),
    promptVariables: d.promptVariables?.bind(d) ?? (() => ({})),
    prepare: d.prepare?.bind(d) ?? (async (task) => ({ task, caseIds: [] }) as unknown as P),
    extract: d.extract?.bind(d) ?? ((reply) => fencedOrWholeReply(reply, language)),
    check: d.check.bind(d),
    render,
    ...(d.tokenizer && { tokenizer: d.tokenizer }),
    ...(d.simulator && { simulator: d.simulator }),
    ...(d.hardener && { hardener: d.hardener }),
    ...(d.observer && { observer: d.observer }),
    ...(d.dispose && { dispose: d.dispose.bind(d) }),
  };
  return oracle;
}

function isComplete<P extends PreparedTask>(definition: OracleDefinition<P>): definition is Oracle<P> {
  const r = definition.render;
  return (
    definition.language !== undefined &&
    definition.settings !== undefined &&
    definition.promptVariables !== undefined &&
    definition.prepare !== undefined &&
    definition.extract !== undefined &&
    r?.witness !== undefined &&
    r.failureSummary !== undefined &&
    r.error !== undefined &&
    r.retry !== undefined
  );
}
