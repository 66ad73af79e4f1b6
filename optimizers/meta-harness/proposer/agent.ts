/**
 * The built-in proposer: an agent over any chat model (OpenAI-compatible endpoint, behind the
 * response cache and the run's spend meter like every call) that reads the store and writes the
 * iteration's candidates with one JSON action per reply (actions.ts, tools.ts). Every step — the
 * reply, the action, the observation — goes to the transcript, stored after each step as
 * proposer/<iteration>/agent.json, so a killed search keeps what the agent did.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BudgetSpentError } from '../../../core/budget.ts';
import type { ChatModel } from '../../../core/models/model.ts';
import type { ChatMessage, Usage } from '../../../core/types.ts';
import { confine } from '../../../core/paths-inside.ts';
import type { ProposeInput, Proposer } from './contract.ts';
import { parseAction, type ProposerAction } from './actions.ts';
import { elidedObservation, observationMessage } from './briefing.ts';
import { finalizeCandidates, type CandidateOutcome } from './finalize.ts';
import { iterationBriefing, reportPath } from './task.ts';
import { runTool } from './tools.ts';

/** Steps (model replies) per iteration when none is given. */
export const DEFAULT_MAX_STEPS = 40;
/** Characters of conversation kept before the oldest observations are elided. */
export const DEFAULT_MAX_CONTEXT_CHARS = 200_000;

export interface AgentProposerOptions {
  model: ChatModel;
  /** Model replies per iteration, malformed ones included (default 40). */
  maxSteps?: number;
  /** Conversation size above which the oldest observations are elided (default 200,000 characters). */
  maxContextChars?: number;
  /** Refuse candidate writes until the report on the last iteration is written (default true). */
  requireReportFirst?: boolean;
}

export type AgentTranscriptEntry =
  | {
      type: 'start';
      iteration: number;
      model: string;
      maxSteps: number;
      candidateIds: string[];
      messages: ChatMessage[];
    }
  | {
      type: 'step';
      step: number;
      reply: string;
      usage: Usage;
      latencyMs: number;
      cached: boolean;
      action: ProposerAction | null;
      ok: boolean;
      observation: string;
      /** Steps whose observations were elided from the conversation before the next request. */
      elided?: number[];
    }
  | { type: 'model-error'; step: number; message: string }
  | {
      type: 'end';
      reason: 'done' | 'step-cap' | 'model-error' | 'budget';
      steps: number;
      candidates: CandidateOutcome[];
    };

/** An agent proposer over `options.model`. */
export function agentProposer(options: AgentProposerOptions): Proposer {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new Error(`maxSteps must be an integer ≥ 1, got ${maxSteps}`);
  return {
    name: `agent:${options.model.info.name}`,
    simulated: options.model.info.privileged,
    propose: (input) => runAgent(options, maxSteps, input),
  };
}

async function runAgent(
  options: AgentProposerOptions,
  maxSteps: number,
  input: ProposeInput,
): Promise<{ transcript: AgentTranscriptEntry[] }> {
  const { store, iteration, candidateIds } = input;
  const maxContextChars = options.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS;
  const requireReport = options.requireReportFirst ?? true;
  const report = reportPath(iteration);
  const reportFile = join(store.root, report);
  const messages: ChatMessage[] = [
    { role: 'system', content: readSkill(input.skillFile) },
    { role: 'user', content: iterationBriefing(input, maxSteps) },
  ];
  const transcript: AgentTranscriptEntry[] = [
    {
      type: 'start',
      iteration,
      model: options.model.info.name,
      maxSteps,
      candidateIds: [...candidateIds],
      messages: [...messages],
    },
  ];
  const save = () => store.writeProposerTranscript(iteration, 'agent', transcript);
  const finish = (reason: Extract<AgentTranscriptEntry, { type: 'end' }>['reason'], steps: number) => {
    const candidates = finalizeCandidates(store, iteration, candidateIds, 'agent');
    transcript.push({ type: 'end', reason, steps, candidates });
    save();
    return { transcript };
  };
  // Observation message index per step, for elision.
  const observationAt = new Map<number, number>();
  let warnedDone = false;
  for (let step = 1; step <= maxSteps; step++) {
    let reply;
    try {
      reply = await options.model.complete({ messages, trial: 0, purpose: 'propose' });
    } catch (error) {
      transcript.push({ type: 'model-error', step, message: (error as Error).message });
      if (error instanceof BudgetSpentError) {
        finish('budget', step - 1);
        throw error;
      }
      return finish('model-error', step - 1);
    }
    const parsed = parseAction(reply.content);
    let ok = false;
    let observation: string;
    let ended = false;
    if (!parsed.ok) observation = `error: ${parsed.error}`;
    else if (parsed.action.action === 'done') {
      const missing = candidateIds.filter((id) => store.harnessState(id) !== 'file');
      if (missing.length > 0 && !warnedDone) {
        warnedDone = true;
        observation = `not done yet: no harness.ts in ${missing.map((id) => `candidates/${id}/`).join(', ')}. Write them, or send done again to end with them missing.`;
      } else {
        ok = true;
        ended = true;
        observation = 'done';
      }
    } else if (
      requireReport &&
      parsed.action.action === 'write' &&
      !existsSync(reportFile) &&
      !isReport(store.root, parsed.action.path, reportFile)
    )
      observation = `error: write your report on the last iteration to ${report} first, then the candidates`;
    else {
      const result = runTool({ store, candidateIds, writableFiles: [reportFile] }, parsed.action);
      ok = result.ok;
      observation = result.observation;
    }
    messages.push({ role: 'assistant', content: reply.content });
    const entry: AgentTranscriptEntry = {
      type: 'step',
      step,
      reply: reply.content,
      usage: reply.usage,
      latencyMs: reply.latencyMs,
      cached: reply.cached,
      action: parsed.ok ? parsed.action : null,
      ok,
      observation,
    };
    transcript.push(entry);
    if (ended) return finish('done', step);
    observationAt.set(step, messages.length);
    messages.push({ role: 'user', content: observationMessage(step, maxSteps, observation) });
    const elided = elide(messages, observationAt, maxContextChars);
    if (elided.length > 0) entry.elided = elided;
    save();
  }
  return finish('step-cap', maxSteps);
}

function readSkill(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `the proposer's skill file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

function isReport(root: string, path: string, reportFile: string): boolean {
  try {
    return confine(root, path) === reportFile;
  } catch {
    return false; // the tool itself names the problem
  }
}

/** Replaces the oldest observations (never the latest) until the conversation fits; returns their steps. */
function elide(messages: ChatMessage[], observationAt: Map<number, number>, maxChars: number): number[] {
  let size = messages.reduce((sum, m) => sum + m.content.length, 0);
  const elided: number[] = [];
  const steps = [...observationAt.keys()];
  for (const step of steps.slice(0, -1)) {
    if (size <= maxChars) break;
    const index = observationAt.get(step) as number;
    const message = messages[index] as ChatMessage;
    const replacement = elidedObservation(step);
    size -= message.content.length - replacement.length;
    messages[index] = { role: 'user', content: replacement };
    observationAt.delete(step);
    elided.push(step);
  }
  return elided;
}
