/** Witness public API: declare benchmarks, use the oracles and strategies, read trajectories. */
export { defineBenchmark, type BenchmarkDefinition } from './core/suite.ts';
export { runEpisode, type EpisodeSetup, DEFAULT_TURN_BUDGET } from './core/episode.ts';
export { loadConfig, type WitnessConfig } from './core/config.ts';
export { loadPrompt, inlinePrompt, renderPrompt, type PromptTemplate } from './core/prompt.ts';
export { createModel } from './core/models/create.ts';
export { createSimModel } from './core/models/sim.ts';
export type { ChatModel, ChatRequest, ChatReply } from './core/models/model.ts';
export { TaskInputError, type Oracle, type PreparedTask, type FeedbackRenderer, type Hardener } from './core/oracle.ts';
export type { Strategy, StrategyContext } from './core/strategy.ts';
export { selectWitnesses, failingCount } from './core/strategy.ts';
export * from './core/types.ts';
export { Rng, deriveSeed } from './core/random.ts';
export { STRATEGIES, STRATEGY_NAMES, pickStrategies } from './strategies/index.ts';
export { regexOracle, type RegexOracleOptions } from './oracles/regex/oracle.ts';
export { loadNlRx, findNlRxTurk } from './oracles/regex/nlrx.ts';
