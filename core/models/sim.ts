/**
 * `sim`: a seeded simulated model for running the whole pipeline offline. It is PRIVILEGED: it
 * knows the gold program, and every report says so.
 *
 * Turn 1: the gold with k random mutations drawn from the oracle's own mutation operators
 * (k = 0 with probability `skill`, else uniform in 1..maxMutations).
 * Later turns: a neighbourhood of proposals — the programs along its own mutation chain (undoing
 * its edits) and `neighbourhood` fresh mutations of its last answer — shuffled by seed. With
 * concrete witnesses in the feedback it takes the first proposal consistent with every witness seen
 * so far (a real CEGIS step, checked by executing the proposal through the oracle); with only
 * "wrong", a count or an error it can only guess a proposal at random. So strategies differ by the
 * information their feedback carries, and by nothing else.
 */
import { deriveSeed, Rng } from '../random.ts';
import type { Candidate, Witness } from '../types.ts';
import {
  estimateTokens,
  ModelCallError,
  type ChatModel,
  type ChatReply,
  type ChatRequest,
  type SimContext,
} from './model.ts';

export interface SimOptions {
  seed: number;
  /** Probability that the first answer is the gold itself (default 0.2). */
  skill: number;
  /** Upper bound of k, the number of mutations in the first answer (default 3). */
  maxMutations: number;
  /** Fresh mutations considered per repair (default 8). */
  neighbourhood: number;
}

export const DEFAULT_SIM: Omit<SimOptions, 'seed'> = { skill: 0.2, maxMutations: 3, neighbourhood: 8 };

interface EpisodeState {
  /** chain[0] is the gold; chain[i] has i mutations. */
  chain: string[];
  current: string;
  tried: Set<string>;
}

export function createSimModel(options: Partial<SimOptions> & { seed: number }): ChatModel {
  const settings: SimOptions = { ...DEFAULT_SIM, ...options };
  validate(settings);
  const episodes = new Map<string, EpisodeState>();

  async function answer(request: ChatRequest): Promise<ChatReply> {
    const started = performance.now();
    if (request.purpose && request.purpose !== 'solve') return reply(await auxiliary(request), request, started);
    const sim = request.sim;
    if (!sim)
      throw new ModelCallError('the sim model only answers inside a Witness episode (no harness context was given)');
    const turn = sim.disclosures.length + 1;
    let state = episodes.get(sim.episodeKey);
    let program: string;
    if (!state || sim.disclosures.length === 0) {
      state = firstAttempt(sim, new Rng(deriveSeed(settings.seed, sim.seed, 'first')));
      episodes.set(sim.episodeKey, state);
      program = state.current;
    } else {
      program = await repair(sim, state, new Rng(deriveSeed(settings.seed, sim.seed, sim.episodeKey, turn)));
    }
    state.current = program;
    state.tried.add(program);
    return reply(sim.simulator.answer(program), request, started);
  }

  function reply(content: string, request: ChatRequest, started: number): ChatReply {
    const promptText = request.messages.map((m) => m.content).join('\n');
    return {
      content,
      usage: { promptTokens: estimateTokens(promptText), completionTokens: estimateTokens(content), estimated: true },
      latencyMs: performance.now() - started,
      cached: false,
      finishReason: 'stop',
    };
  }

  /**
   * Auxiliary calls (HERO's refiner, judge and reflector; a cheatsheet curator) are answered
   * mechanically: the sim cannot read prompts, so these replies carry no judgement at all.
   */
  async function auxiliary(request: ChatRequest): Promise<string> {
    const last = request.messages.at(-1)?.content ?? '';
    const rng = new Rng(deriveSeed(settings.seed, request.purpose ?? '', request.messages.length, last.length));
    switch (request.purpose) {
      case 'judge':
        return rng.chance(0.5)
          ? 'sim: mechanical review.\nVERDICT: SUPPORTED'
          : 'sim: mechanical review.\nVERDICT: UNSUPPORTED';
      case 'reflect':
        return mechanicalReflection(request.messages.map((m) => m.content).join('\n'), rng);
      case 'memory': {
        const current = /```cheatsheet\n([\s\S]*?)```/.exec(last)?.[1]?.trim() ?? '';
        return '```cheatsheet\n' + [current, `- ${rng.pick(RULES)}`].filter(Boolean).join('\n') + '\n```';
      }
      case 'refine':
        return mechanicalRefinement(request, rng);
      default:
        throw new ModelCallError(`the sim model cannot answer a ${request.purpose} call`);
    }
  }

  async function mechanicalRefinement(request: ChatRequest, rng: Rng): Promise<string> {
    const steps = request.messages.filter((m) => m.role === 'assistant').length;
    if (steps === 0) return '{"action": "execute"}';
    if (steps === 1) return '{"action": "probe"}';
    const sim = request.sim;
    const state = sim ? episodes.get(sim.episodeKey) : undefined;
    if (!sim || !state) return '{"action": "keep", "rationale": "sim: nothing to revise"}';
    const proposals = neighbourhood(sim, state, rng);
    if (proposals.length === 0) return '{"action": "keep", "rationale": "sim: no alternative"}';
    return (
      '{"action": "revise", "rationale": "sim: a mechanical guess"}\n' + sim.simulator.answer(proposals[0] as string)
    );
  }

  function firstAttempt(sim: SimContext, rng: Rng): EpisodeState {
    const gold = sim.simulator.gold;
    const k = rng.chance(settings.skill) ? 0 : rng.between(1, settings.maxMutations);
    const chain = [gold];
    for (let i = 0; i < k; i++) {
      const next = sim.simulator.mutate(chain.at(-1) as string, rng);
      if (next !== null) chain.push(next);
    }
    return { chain, current: chain.at(-1) as string, tried: new Set() };
  }

  async function repair(sim: SimContext, state: EpisodeState, rng: Rng): Promise<string> {
    const proposals = neighbourhood(sim, state, rng);
    if (proposals.length === 0) return state.current;
    const witnesses = sim.disclosures.flatMap((d) => d.witnesses);
    if (witnesses.length === 0) return proposals[0] as string;
    for (const proposal of proposals) {
      if (await consistentWithAll(sim, proposal, witnesses)) return proposal;
    }
    return proposals[0] as string;
  }

  function neighbourhood(sim: SimContext, state: EpisodeState, rng: Rng): string[] {
    const pool = new Set<string>(state.chain);
    for (let i = 0; i < settings.neighbourhood; i++) {
      const next = sim.simulator.mutate(state.current, rng);
      if (next !== null) pool.add(next);
    }
    const fresh = [...pool].filter((p) => !state.tried.has(p));
    return rng.shuffle(fresh.length > 0 ? fresh : [...pool].filter((p) => p !== state.current));
  }

  async function consistentWithAll(sim: SimContext, program: string, witnesses: Witness[]): Promise<boolean> {
    const candidate: Candidate | null = sim.simulator.extract(sim.simulator.answer(program));
    if (!candidate) return false;
    for (const witness of witnesses) {
      if (!(await sim.simulator.agrees(candidate, witness))) return false;
    }
    return true;
  }

  return {
    info: { name: 'sim', privileged: true, seed: settings.seed },
    complete: answer,
    close: async () => episodes.clear(),
  };
}

const RULES = [
  'Read every constraint of the statement and make sure the program enforces each one.',
  'Prefer the simplest program that satisfies the statement.',
  'Check the boundaries: empty inputs, first and last positions, off-by-one limits.',
  'Use only names that exist in the environment.',
  'Return exactly what is asked, in the order asked.',
];

/** K revised instruction texts: the current one plus one generic rule each. */
function mechanicalReflection(message: string, rng: Rng): string {
  const current = /```prompt\n([\s\S]*?)```/.exec(message)?.[1]?.trim() ?? '';
  const count = Number(/Propose (\d+)/.exec(message)?.[1] ?? 4);
  return rng
    .shuffle(RULES)
    .slice(0, Math.max(1, Math.min(count, RULES.length)))
    .map((rule) => '```prompt\n' + `${current}\n- ${rule}`.trim() + '\n```')
    .join('\n\n');
}

function validate(options: SimOptions): void {
  if (!(options.skill >= 0 && options.skill <= 1))
    throw new Error(`sim skill must be between 0 and 1, got ${options.skill}`);
  if (!Number.isInteger(options.maxMutations) || options.maxMutations < 1) {
    throw new Error(`sim maxMutations must be a positive integer, got ${options.maxMutations}`);
  }
  if (!Number.isInteger(options.neighbourhood) || options.neighbourhood < 0) {
    throw new Error(`sim neighbourhood must be a non-negative integer, got ${options.neighbourhood}`);
  }
}
