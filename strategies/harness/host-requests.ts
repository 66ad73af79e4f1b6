/**
 * The host's answers to a harness's requests (`answer`, `chat`, `observe`, `describe`, `extract`,
 * `remaining`): each one metered against the episode's budgets before it is served, a refused one
 * answered with a typed budget error, and a second refusal the harness's failure (`budget`).
 */
import type { Observation } from '../../core/oracle.ts';
import { estimateTokens } from '../../core/models/model.ts';
import type { ChatMessage, Json, JsonObject } from '../../core/types.ts';
import {
  promptTokens,
  refuseCall,
  refuseObserve,
  remaining,
  type BudgetResource,
  type HarnessBudgets,
  type Usage,
} from './budgets.ts';
import type { HarnessFailureKind } from './failure.ts';
import type { ChildRequest, HarnessCallPurpose, HostMessage } from './protocol.ts';

/** What the harness's requests are answered with; the strategy adapter implements it over a refinement session. */
export interface HarnessHost {
  /** The episode's first turn; the program the oracle extracted, or null. */
  answer(system: string | null): Promise<{ program: string | null }>;
  /** A further model call; null text when the call failed. */
  chat(messages: ChatMessage[], purpose: HarnessCallPurpose): Promise<string | null>;
  observe(program: string): Promise<Observation>;
  describe(): Promise<string>;
  extract(reply: string): string | null;
  log(entry: JsonObject): void;
}

export interface RequestDesk {
  /** Answers one request; rejects only when the host itself fails (the model plumbing, the observer). */
  handle(request: ChildRequest): Promise<void>;
  /** Whether `ctx.model.answer()` was served. */
  readonly answered: boolean;
  readonly used: Usage;
}

/** A desk for one episode: `send` writes to the child, `fail` stops it, `elapsedMs` is its age. */
export function requestDesk(options: {
  budgets: HarnessBudgets;
  host: HarnessHost;
  send: (message: HostMessage) => void;
  fail: (kind: HarnessFailureKind, message: string) => void;
  elapsedMs: () => number;
}): RequestDesk {
  const { budgets, host, send, fail } = options;
  const used: Usage = { calls: 0, tokens: 0, observes: 0 };
  let answered = false;
  let refusals = 0;

  const refuse = (id: number, refusal: { resource: BudgetResource; message: string }) => {
    host.log({ op: 'refused', resource: refusal.resource, message: refusal.message });
    if (++refusals > 1) return fail('budget', `${refusal.message} (after an earlier budget error)`);
    send({ id, type: 'error', error: { kind: 'budget', message: refusal.message, resource: refusal.resource } });
  };
  const usage = (id: number, message: string) => send({ id, type: 'error', error: { kind: 'usage', message } });

  async function handle(request: ChildRequest): Promise<void> {
    const reply = (value: Json) => send({ id: request.id, type: 'result', value });
    switch (request.type) {
      case 'answer': {
        if (answered) return usage(request.id, 'ctx.model.answer() may be called once per episode');
        const refusal = refuseCall(budgets, used, [{ role: 'system', content: request.system ?? '' }]);
        if (refusal) return refuse(request.id, refusal);
        answered = true;
        used.calls++;
        const { program } = await host.answer(request.system);
        used.tokens += estimateTokens(request.system ?? '') + estimateTokens(program ?? '');
        return reply({ program });
      }
      case 'chat': {
        if (!answered) return usage(request.id, 'call ctx.model.answer() before ctx.model.chat()');
        const refusal = refuseCall(budgets, used, request.messages);
        if (refusal) return refuse(request.id, refusal);
        used.calls++;
        used.tokens += promptTokens(request.messages);
        const text = await host.chat(request.messages, request.purpose);
        if (text === null)
          return send({ id: request.id, type: 'error', error: { kind: 'model', message: 'the model call failed' } });
        used.tokens += estimateTokens(text);
        return reply({ text, program: host.extract(text) });
      }
      case 'observe': {
        const refusal = refuseObserve(budgets, used);
        if (refusal) return refuse(request.id, refusal);
        used.observes++;
        return reply((await host.observe(request.program)) as unknown as Json);
      }
      case 'describe':
        return reply(await host.describe());
      case 'extract':
        return reply(host.extract(request.reply));
      case 'remaining':
        return reply(remaining(budgets, used, options.elapsedMs()));
    }
  }

  return {
    handle,
    get answered() {
      return answered;
    },
    used,
  };
}
