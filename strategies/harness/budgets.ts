/**
 * Budgets of one harness episode, enforced on the host, and the sandbox's resource limits. Pure
 * accounting: `charge` says whether a request fits; a refused request is answered with a typed
 * budget error the harness may catch, and a second refusal stops the child (`budget`).
 */
import { estimateTokens } from '../../core/models/model.ts';
import type { ChatMessage } from '../../core/types.ts';

export interface HarnessBudgets {
  /** Model calls per episode, `answer` included (default 8). */
  calls: number;
  /** Tokens per episode, prompt and reply, counted as the sim counts them (~4 characters each; default 24,000). */
  tokens: number;
  /** `observe` runs per episode (default 12). */
  observes: number;
  /** Wall time per episode, from the child's start to `done`, milliseconds (default 60,000). */
  wallMs: number;
  /** Size of `ctx.memory` as JSON, bytes (default 64 KiB). */
  memoryBytes: number;
  /** Characters of one chat request's messages together (default 100,000). */
  messageChars: number;
  /** Bytes of `ctx.log` entries (console output included) per episode, as JSON (default 256 KiB). */
  logBytes: number;
  /** Messages of any kind the child may send per episode (default 1,000). */
  messages: number;
  /** Bytes the child may write to its stdout per episode, every message together (default 8 MiB). */
  outputBytes: number;
}

export const DEFAULT_BUDGETS: HarnessBudgets = {
  calls: 8,
  tokens: 24_000,
  observes: 12,
  wallMs: 60_000,
  memoryBytes: 64 * 1024,
  messageChars: 100_000,
  logBytes: 256 * 1024,
  messages: 1000,
  outputBytes: 8 * 1024 * 1024,
};

export interface SandboxLimits {
  /** RLIMIT_AS of the child, bytes (default 2 GiB; Node needs about 1 GiB of address space to start). */
  addressSpaceBytes: number;
  /** V8 old-space cap, MiB (default 256). */
  heapMiB: number;
  /** RLIMIT_CPU, seconds (default 30). */
  cpuSeconds: number;
  /** Largest file the child may write, bytes (default 8 MiB). */
  fileSizeBytes: number;
  /** Size of the job folder, a tmpfs that lives as long as the child (default 64 MiB). */
  jobBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  addressSpaceBytes: 2 * 1024 ** 3,
  heapMiB: 256,
  cpuSeconds: 30,
  fileSizeBytes: 8 * 1024 ** 2,
  jobBytes: 64 * 1024 ** 2,
};

export type BudgetResource = 'calls' | 'tokens' | 'observes' | 'message';

/** What an episode has used so far. */
export interface Usage {
  calls: number;
  tokens: number;
  observes: number;
}

/** Checks every field of partial budgets; an error names the bad one. */
export function resolveBudgets(partial: Partial<HarnessBudgets> = {}): HarnessBudgets {
  const budgets = { ...DEFAULT_BUDGETS, ...partial };
  for (const [key, value] of Object.entries(budgets)) {
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`harness budget ${key} must be a non-negative integer, got ${value}`);
  }
  return budgets;
}

export const promptTokens = (messages: readonly ChatMessage[]): number =>
  estimateTokens(messages.map((m) => m.content).join('\n'));

/** Why a model call may not be made now, or null when it fits. */
export function refuseCall(
  budgets: HarnessBudgets,
  used: Usage,
  messages: readonly ChatMessage[],
): { resource: BudgetResource; message: string } | null {
  if (used.calls >= budgets.calls)
    return { resource: 'calls', message: `the episode's ${budgets.calls} model calls are used up` };
  const chars = messages.reduce((n, m) => n + m.content.length, 0);
  if (chars > budgets.messageChars)
    return {
      resource: 'message',
      message: `a chat request may carry ${budgets.messageChars} characters, this one has ${chars}`,
    };
  const need = promptTokens(messages);
  if (used.tokens + need > budgets.tokens)
    return {
      resource: 'tokens',
      message: `the prompt (~${need} tokens) does not fit the ${budgets.tokens - used.tokens} tokens left`,
    };
  return null;
}

/** Why an observe may not run now, or null. */
export function refuseObserve(
  budgets: HarnessBudgets,
  used: Usage,
): { resource: BudgetResource; message: string } | null {
  return used.observes >= budgets.observes
    ? { resource: 'observes', message: `the episode's ${budgets.observes} observe runs are used up` }
    : null;
}

/** What is left of each budget. */
export function remaining(budgets: HarnessBudgets, used: Usage, elapsedMs: number) {
  return {
    calls: Math.max(0, budgets.calls - used.calls),
    tokens: Math.max(0, budgets.tokens - used.tokens),
    observes: Math.max(0, budgets.observes - used.observes),
    wallMs: Math.max(0, Math.round(budgets.wallMs - elapsedMs)),
  };
}
