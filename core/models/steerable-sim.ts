/**
 * `sim-steerable`: a seeded simulated model whose mistakes respond to what the prompt and the
 * harness do, so optimizers (HERO-O, Meta-Harness) face a problem with a known better answer. Like
 * the `sim` it is PRIVILEGED — it knows the gold program — and every report says so.
 *
 * First answer: the gold with at most one mistake of each class of the oracle's steering catalog
 * (oracles/<family>/steering.ts). A class makes its mistake with probability `mistakeRate`, times
 * `ruleFactor` when the prompt (system and user messages) carries the class's rule, times
 * `harmFactor` when it carries a harmful rule provoking the class. Each class draws one fixed
 * number per (task, trial), so two prompts are compared on common random numbers: adding a rule
 * can only take that class's mistake away, a harmful rule can only add one (the other classes draw
 * the same numbers; their edits land on a slightly different program).
 * Follow-ups (the conversation holds one of its earlier answers): when a later message shows the
 * observer's execution error for that program, it repairs it with probability `repairRate`; with
 * verdict feedback (disclosures) it searches like the sim (witness-consistent proposals); otherwise
 * it keeps its answer. As a refiner (HERO-T, ReAct) it executes its program first and revises only
 * to repair an execution error it was shown; its other auxiliary calls (judge, reflector, memory)
 * are the plain sim's mechanical ones. Oracles without a catalog (Cypher, Python) get the plain
 * sim's behaviour.
 */
import type { EpisodeSimulator } from '../oracle.ts';
import { deriveSeed, Rng } from '../random.ts';
import { classRate, steeringOf, type MutationClass, type SteeringCatalog, type SteeringRates } from '../steering.ts';
import type { ChatMessage, Witness } from '../types.ts';
import { estimateTokens, ModelCallError, type ChatModel, type ChatReply, type SimContext } from './model.ts';
import { createSimModel } from './sim.ts';

export const STEERABLE_SIM_NAME = 'sim-steerable';

export interface SteerableSimOptions extends SteeringRates {
  seed: number;
  /** Probability that an execution error shown in the conversation is repaired (default 0.9). */
  repairRate: number;
  /** Fresh mutations considered per repair after verdict feedback (default 8, as the sim). */
  neighbourhood: number;
}

export const DEFAULT_STEERABLE_SIM: Omit<SteerableSimOptions, 'seed'> = {
  mistakeRate: 0.3,
  ruleFactor: 0.1,
  harmFactor: 3,
  repairRate: 0.9,
  neighbourhood: 8,
};

interface Step {
  program: string;
  /** The mistake class that produced this program from the previous step; null for the gold. */
  cls: string | null;
}

interface EpisodeState {
  /** chain[0] is the gold; each later step adds one mistake. */
  chain: Step[];
  current: string;
  tried: Set<string>;
}

/** The steerable sim model (see the module comment). */
export function createSteerableSimModel(options: Partial<SteerableSimOptions> & { seed: number }): ChatModel {
  const settings: SteerableSimOptions = { ...DEFAULT_STEERABLE_SIM, ...options };
  validate(settings);
  const plain = createSimModel({ seed: settings.seed, neighbourhood: settings.neighbourhood });
  // States by (episode, the program answered): two conversations of one episode key (say, two
  // prompts evaluated side by side) each continue from their own last answer.
  const answered = new Map<string, EpisodeState>();
  // The latest state per episode, for refiner calls (their messages quote the program, not an answer).
  const latest = new Map<string, EpisodeState>();
  const remember = (sim: SimContext, state: EpisodeState) => {
    answered.set(answerKey(sim.episodeKey, sourceOf(sim.simulator, state.current)), state);
    latest.set(sim.episodeKey, state);
  };
  const seeded = (sim: SimContext, ...labels: (string | number)[]) =>
    new Rng(deriveSeed(settings.seed, sim.seed, ...labels));

  function firstAttempt(
    sim: SimContext,
    catalog: SteeringCatalog,
    mutateOfClass: NonNullable<EpisodeSimulator['mutateOfClass']>,
    messages: ChatMessage[],
  ): EpisodeState {
    const prompt = messages
      .filter((m) => m.role !== 'assistant')
      .map((m) => m.content)
      .join('\n');
    const effect = steeringOf(catalog, prompt);
    const chain: Step[] = [{ program: sim.simulator.gold, cls: null }];
    for (const cls of applicationOrder(catalog)) {
      if (seeded(sim, 'mistake', cls.name).next() >= classRate(cls.name, effect, settings)) continue;
      const current = (chain.at(-1) as Step).program;
      const next = mutateOfClass(current, cls.name, seeded(sim, 'mutate', cls.name));
      if (next !== null && next !== current) chain.push({ program: next, cls: cls.name });
    }
    return { chain, current: (chain.at(-1) as Step).program, tried: new Set() };
  }

  /**
   * When `shown` carries the observer's error for the current program: the repaired program (with
   * probability repairRate) or the current one (unlucky). Null when no such error is shown.
   */
  async function repairShownError(
    sim: SimContext,
    catalog: SteeringCatalog,
    state: EpisodeState,
    shown: string,
    turn: number,
  ): Promise<string | null> {
    const errorAt = state.chain.findIndex((s) => s.cls !== null && failsToRun(catalog, s.cls));
    const inChain = state.chain.findIndex((s) => s.program === state.current);
    if (errorAt <= 0 || inChain < errorAt || !(await errorShown(sim.simulator, state.current, shown))) return null;
    if (!seeded(sim, sim.episodeKey, 'repair', turn).chance(settings.repairRate)) return state.current;
    return (state.chain[errorAt - 1] as Step).program;
  }

  async function followUp(
    sim: SimContext,
    catalog: SteeringCatalog,
    state: EpisodeState,
    later: string,
    turn: number,
  ): Promise<string> {
    const repaired = await repairShownError(sim, catalog, state, later, turn);
    if (repaired !== null) return repaired;
    if (sim.disclosures.length === 0) return state.current;
    const rng = seeded(sim, sim.episodeKey, 'search', turn);
    const proposals = neighbourhood(sim.simulator, state, rng, settings.neighbourhood);
    if (proposals.length === 0) return state.current;
    const witnesses = sim.disclosures.flatMap((d) => d.witnesses);
    for (const proposal of witnesses.length > 0 ? proposals : []) {
      if (await consistentWithAll(sim.simulator, proposal, witnesses)) return proposal;
    }
    return proposals[0] as string;
  }

  /** A refiner step (HERO-T, ReAct protocol): execute first, then revise only to repair an execution error it was shown. */
  async function refineStep(
    sim: SimContext,
    catalog: SteeringCatalog,
    state: EpisodeState,
    messages: ChatMessage[],
  ): Promise<string> {
    if (!messages.some((m) => m.role === 'assistant')) return '{"action": "execute"}';
    const shown = messages
      .filter((m) => m.role !== 'assistant')
      .map((m) => m.content)
      .join('\n');
    const repaired = await repairShownError(sim, catalog, state, shown, messages.length);
    if (repaired === null || repaired === state.current)
      return '{"action": "keep", "rationale": "steerable sim: no execution error it can repair"}';
    return (
      '{"action": "revise", "rationale": "steerable sim: repairs the execution error it observed"}\n' +
      sim.simulator.answer(repaired)
    );
  }

  return {
    info: { name: STEERABLE_SIM_NAME, privileged: true, seed: settings.seed },
    async complete(request): Promise<ChatReply> {
      const sim = request.sim;
      const catalog = sim?.simulator.steering;
      const refined = request.purpose === 'refine' && sim ? latest.get(sim.episodeKey) : undefined;
      if (sim && refined && catalog) {
        const started = performance.now();
        const content = await refineStep(sim, catalog, refined, request.messages);
        return reply(content, request.messages, started);
      }
      const mutateOfClass = sim?.simulator.mutateOfClass;
      if ((request.purpose && request.purpose !== 'solve') || !sim || !catalog || !mutateOfClass) {
        if (!sim && (!request.purpose || request.purpose === 'solve'))
          throw new ModelCallError(
            'the steerable sim only answers inside a Witness episode (no harness context was given)',
          );
        return plain.complete(request);
      }
      const started = performance.now();
      const previous = findState(answered, sim, request.messages);
      let state: EpisodeState;
      if (!previous) {
        state = firstAttempt(sim, catalog, mutateOfClass, request.messages);
      } else {
        const later = request.messages
          .slice(previous.index + 1)
          .filter((m) => m.role !== 'assistant')
          .map((m) => m.content)
          .join('\n');
        const program = await followUp(sim, catalog, previous.state, later, request.messages.length);
        state = { ...previous.state, current: program, tried: new Set([...previous.state.tried, program]) };
      }
      state.tried.add(state.current);
      remember(sim, state);
      return reply(sim.simulator.answer(state.current), request.messages, started);
    },
    async close() {
      answered.clear();
      latest.clear();
      await plain.close?.();
    },
  };
}

function reply(content: string, messages: ChatMessage[], started: number): ChatReply {
  const promptText = messages.map((m) => m.content).join('\n');
  return {
    content,
    usage: { promptTokens: estimateTokens(promptText), completionTokens: estimateTokens(content), estimated: true },
    latencyMs: performance.now() - started,
    cached: false,
    finishReason: 'stop',
  };
}

/** Catalog order, with the classes that fail to run last (their programs take no further mutation). */
function applicationOrder(catalog: SteeringCatalog): MutationClass[] {
  return [...catalog.classes.filter((c) => !c.failsToRun), ...catalog.classes.filter((c) => c.failsToRun)];
}

function failsToRun(catalog: SteeringCatalog, name: string): boolean {
  return catalog.classes.some((c) => c.name === name && c.failsToRun === true);
}

const sourceOf = (simulator: EpisodeSimulator, program: string) =>
  simulator.extract(simulator.answer(program))?.source ?? program;

const answerKey = (episodeKey: string, source: string) => `${episodeKey}\u0000${source}`;

/** The state of the last answer of this episode the messages carry (and that message's index), or null: a fresh request. */
function findState(
  answered: Map<string, EpisodeState>,
  sim: SimContext,
  messages: ChatMessage[],
): { state: EpisodeState; index: number } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m.role !== 'assistant') continue;
    const source = sim.simulator.extract(m.content)?.source;
    const state = source === undefined ? undefined : answered.get(answerKey(sim.episodeKey, source));
    if (state) return { state, index: i };
  }
  return null;
}

/**
 * Does `later` show what the observer reports for `program`: its error message (the first line,
 * up to 80 characters, whitespace normalized)? A harness that runs the program but keeps the error
 * to itself gets no repair.
 */
async function errorShown(simulator: EpisodeSimulator, program: string, later: string): Promise<boolean> {
  if (!simulator.observe || later.length === 0) return false;
  const candidate = simulator.extract(simulator.answer(program));
  if (!candidate) return false;
  const observation = await simulator.observe(candidate);
  if (observation.ok || !observation.error) return false;
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const head = squash(observation.error.message.split('\n')[0] ?? '').slice(0, 80);
  return head.length >= 8 && squash(later).includes(head);
}

function neighbourhood(simulator: EpisodeSimulator, state: EpisodeState, rng: Rng, size: number): string[] {
  const pool = new Set<string>(state.chain.map((s) => s.program));
  for (let i = 0; i < size; i++) {
    const next = simulator.mutate(state.current, rng);
    if (next !== null) pool.add(next);
  }
  const fresh = [...pool].filter((p) => !state.tried.has(p));
  return rng.shuffle(fresh.length > 0 ? fresh : [...pool].filter((p) => p !== state.current));
}

async function consistentWithAll(simulator: EpisodeSimulator, program: string, witnesses: Witness[]): Promise<boolean> {
  const candidate = simulator.extract(simulator.answer(program));
  if (!candidate) return false;
  for (const witness of witnesses) if (!(await simulator.agrees(candidate, witness))) return false;
  return true;
}

function validate(options: SteerableSimOptions): void {
  const share = (name: keyof SteerableSimOptions) => {
    const v = options[name];
    if (!(v >= 0 && v <= 1)) throw new Error(`steerable sim ${name} must be between 0 and 1, got ${v}`);
  };
  share('mistakeRate');
  share('ruleFactor');
  share('repairRate');
  if (!(options.harmFactor >= 1 && Number.isFinite(options.harmFactor)))
    throw new Error(`steerable sim harmFactor must be a number of at least 1, got ${options.harmFactor}`);
  if (!Number.isInteger(options.neighbourhood) || options.neighbourhood < 0)
    throw new Error(`steerable sim neighbourhood must be a non-negative integer, got ${options.neighbourhood}`);
}
