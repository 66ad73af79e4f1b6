/**
 * HERO-T, evidence-gated test-time refinement, and its ReAct-style baseline. Starting from the
 * initial program, the refiner takes up to `budget` evidence actions (execute and observe, probe
 * the environment, retrieve verified examples of similar training tasks and pick at most 3 of
 * them), then proposes one revision or keeps the program. HERO-T accepts the revision only if it
 * passes programmatic checks (it parses, it executes without error, its result has a plausible
 * shape) and an LLM judge finds every change supported by the gathered evidence; a rejected
 * revision leaves the program unchanged. The ReAct baseline uses the same actions and budget and
 * adopts its revision without the gate.
 */
import { renderPrompt, type PromptTemplate } from '../../core/prompt.ts';
import type { Observation } from '../../core/oracle.ts';
import type { Candidate, ChatMessage } from '../../core/types.ts';
// The harness SDK's own helpers, so the HERO-T and ReAct seed harnesses show the model the same evidence.
import { clipText, formatObservation } from '../harness/child/sdk.mjs';
import { parseAction } from './protocol.ts';
import type { ExampleIndex, VerifiedExample } from './retrieve.ts';
import type { RefinementSession } from '../../core/refinement.ts';

export interface RefinerOptions {
  /** Evidence actions per instance (default 3). */
  budget: number;
  /** Examples shown by a retrieve action (default 5); the refiner keeps at most `pickAtMost`. */
  retrieveK: number;
  pickAtMost: number;
  /** true: HERO-T's evidence gate; false: the ReAct baseline (revisions adopted as proposed). */
  gate: boolean;
  refinePrompt: PromptTemplate;
  judgePrompt: PromptTemplate;
  /** Execution-verified training examples to retrieve from (none: retrieve finds nothing). */
  examples?: ExampleIndex;
}

/** The most similar verified examples of other tasks. */
function retrieve(session: RefinementSession, options: RefinerOptions): VerifiedExample[] {
  return (
    options.examples?.search(session.task.description, options.retrieveK, session.task.id).map((r) => r.example) ?? []
  );
}

/** A result of plausible shape: it ran, and a tabular result is not empty. */
export function plausible(o: Observation): string | null {
  if (!o.ok) return `it does not execute: ${o.error?.kind ?? 'runtime'}: ${o.error?.message ?? ''}`.trim();
  if (o.shape?.rows === 0) return 'it returns an empty result';
  return null;
}

/** Refiner calls an instance may take: the evidence actions, picks and retries after a bad reply, and the final revise or keep. */
export function refinerSteps(budget: number): number {
  return budget + 4;
}

export async function refine(session: RefinementSession, options: RefinerOptions): Promise<void> {
  const program = await session.initial();
  if (!program) {
    session.log({ step: 0, action: 'stop', note: 'no initial program to refine' });
    return;
  }
  const vars = {
    description: session.task.description,
    language: session.language,
    program: program.source,
    budget: String(options.budget),
  };
  const messages: ChatMessage[] = renderPrompt(options.refinePrompt, vars);
  const evidence: string[] = [];
  let actions = 0;
  let strikes = 0;
  let offered: string[] = [];
  let proposal: { program: string; rationale: string } | null = null;

  for (let step = 1; step <= refinerSteps(options.budget) && strikes < 3; step++) {
    const reply = await session.ask(messages, 'refine');
    if (reply === null) {
      session.log({ step, action: 'stop', note: 'the refiner call failed' });
      return;
    }
    messages.push({ role: 'assistant', content: reply });
    const action = parseAction(reply, session.language);
    const say = (content: string) => messages.push({ role: 'user', content });
    if (action.kind === 'invalid') {
      strikes++;
      session.log({ step, action: 'invalid', note: action.problem });
      say(`That reply was not valid (${action.problem}). Reply with exactly one JSON object.`);
      continue;
    }
    if (action.kind === 'revise') {
      proposal = { program: action.program, rationale: action.rationale };
      session.log({ step, action: 'revise', rationale: action.rationale });
      break;
    }
    if (action.kind === 'keep') {
      session.log({ step, action: 'keep', rationale: action.rationale });
      return;
    }
    if (action.kind === 'pick') {
      const ids = action.ids.filter((id) => offered.includes(id)).slice(0, options.pickAtMost);
      const picked = retrieve(session, options).filter((r) => ids.includes(r.taskId));
      const text = picked.length
        ? picked.map((e) => `Example ${e.taskId}: ${e.statement}\n${e.program}`).join('\n\n')
        : '(no example picked)';
      evidence.push(`[examples]\n${text}`);
      session.log({ step, action: 'pick', ids });
      offered = [];
      say(`${text}\n\nEvidence actions left: ${options.budget - actions}.`);
      continue;
    }
    if (actions >= options.budget) {
      strikes++;
      say('No evidence actions are left. Reply with a revise or keep action.');
      continue;
    }
    actions++;
    let observation: string;
    if (action.kind === 'execute') {
      observation = formatObservation(await session.observe(program));
    } else if (action.kind === 'probe') {
      observation = clipText(await session.describe());
    } else {
      const found = retrieve(session, options);
      offered = found.map((e) => e.taskId);
      observation = found.length
        ? `${found.map((e) => `Example ${e.taskId}: ${e.statement}`).join('\n')}\n\nReply {"action": "pick", "ids": [...]} with at most ${options.pickAtMost} of these ids to see their verified solutions.`
        : '(no similar training examples)';
    }
    evidence.push(`[${action.kind}] ${observation}`);
    session.log({ step, action: action.kind });
    say(`${observation}\n\nEvidence actions left: ${options.budget - actions}.`);
  }
  if (!proposal) {
    session.log({ step: -1, action: 'stop', note: 'no revision proposed' });
    return;
  }
  const revised: Candidate | null = session.extract('```' + session.language + '\n' + proposal.program + '\n```');
  if (!revised) {
    session.log({ step: -1, action: 'reject', reason: 'no program in the revision' });
    return;
  }
  if (options.gate) {
    const reason = await checkRevision(session, options, revised, program, proposal.rationale, evidence);
    if (reason) {
      session.log({ step: -1, action: 'reject', reason });
      return;
    }
  }
  await session.adopt(revised, proposal.rationale);
  session.log({ step: -1, action: 'accept', gated: options.gate });
}

/** HERO-T's evidence gate; returns why the revision is rejected, or null to accept it. */
async function checkRevision(
  session: RefinementSession,
  options: RefinerOptions,
  revised: Candidate,
  current: Candidate,
  rationale: string,
  evidence: string[],
): Promise<string | null> {
  if (revised.source.trim() === current.source.trim()) return 'the revision does not change the program';
  const observed = await session.observe(revised);
  const problem = plausible(observed);
  if (problem) return `programmatic check failed: ${problem}`;
  evidence.push(`[execute revision] ${formatObservation(observed)}`);
  const judgeMessages = renderPrompt(options.judgePrompt, {
    description: session.task.description,
    language: session.language,
    evidence: evidence.join('\n\n') || '(none)',
    program: current.source,
    revision: revised.source,
    rationale: rationale || '(none given)',
  });
  const verdict = await session.ask(judgeMessages, 'judge');
  if (verdict === null) return 'the judge call failed';
  const match = /VERDICT:\s*(SUPPORTED|UNSUPPORTED)/i.exec(verdict);
  if (!match) return 'the judge gave no verdict';
  return match[1]?.toUpperCase() === 'SUPPORTED' ? null : 'the judge found the changes unsupported by the evidence';
}
