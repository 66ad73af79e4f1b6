/** Witness public API: declare benchmarks, use the oracles and strategies, read trajectories. */
export { defineBenchmark, type BenchmarkDefinition } from './core/suite.ts';
export { runEpisode, type EpisodeSetup, DEFAULT_TURN_BUDGET } from './core/episode.ts';
export { loadConfig, type WitnessConfig } from './core/config.ts';
export { loadPrompt, inlinePrompt, renderPrompt, type PromptTemplate } from './core/prompt.ts';
export { createModel } from './core/models/create.ts';
export { createSimModel } from './core/models/sim.ts';
export type { ChatModel, ChatRequest, ChatReply } from './core/models/model.ts';
export {
  TaskInputError,
  type Oracle,
  type OracleDefinition,
  type SimulatedOracle,
  type PreparedTask,
  type FeedbackRenderer,
  type Hardener,
} from './core/oracle.ts';
export { defineOracle } from './core/oracle-defaults.ts';
export type { Strategy, FeedbackStrategy, RefiningStrategy, StrategyContext } from './core/strategy.ts';
export type { RefinementSession } from './core/refinement.ts';
export { selectWitnesses, failingCount } from './core/strategy.ts';
export * from './core/types.ts';
export { Rng, deriveSeed } from './core/random.ts';
export {
  STRATEGIES,
  STRATEGY_NAMES,
  REFINING_STRATEGIES,
  REFINING_STRATEGY_NAMES,
  ALL_STRATEGY_NAMES,
  pickStrategies,
  buildStrategies,
  type StrategyInputs,
} from './strategies/index.ts';
export { regexOracle, type RegexOracleOptions } from './oracles/regex/oracle.ts';
export { loadNlRx, findNlRxTurk } from './oracles/regex/loader.ts';
export { sqlOracle, type SqlOracleOptions, type SqlPrepared } from './oracles/sql/oracle.ts';
export {
  loadBird,
  readBirdQuestions,
  resolveBirdLayout,
  birdDatabasePath,
  BIRD_FIXTURES,
  type BirdQuestion,
} from './oracles/sql/loader.ts';
export { evaluateBird, type BirdEvaluation, type BirdEvalOptions } from './oracles/sql/evaluate.ts';
export { SqlPool, type SqlPoolOptions } from './oracles/sql/pool.ts';
export { resultsEqual, type CompareMode } from './oracles/sql/compare.ts';
export { readResultsFile, type ResultsFile } from './reports/results-file.ts';
export { mergeResults, mergeTrajectories } from './reports/merge.ts';
export { writeReports, type WrittenReports } from './reports/write-reports.ts';
export { evaluateGate, type GatePolicy, type GateVerdict } from './reports/gate.ts';
export { readGateInput, buildBaseline, type InstanceOutcome } from './reports/outcomes.ts';
export { passAtK } from './reports/pass-at-k.ts';
export { dsCodeBenchOracle, type DsCodeBenchOptions, type DsPrepared } from './oracles/python/dscodebench/oracle.ts';
export { loadDsCodeBench } from './oracles/python/dscodebench/loader.ts';
export {
  bigCodeBenchOracle,
  type BigCodeBenchOptions,
  type BcbPrepared,
} from './oracles/python/bigcodebench/oracle.ts';
export { loadBigCodeBench } from './oracles/python/bigcodebench/loader.ts';
export { WorkerPool, type PoolOptions } from './oracles/python/pool/pool.ts';
export { runProgram, type ProgramOutcome } from './oracles/python/run-program.ts';
export { EnvironmentMissingError, describeEnvironment } from './oracles/python/environment.ts';
export { resolveBackend, type BackendChoice } from './oracles/python/sandbox/select.ts';
export { cypherOracle, type CypherOracleOptions, type CypherPrepared } from './oracles/cypher/oracle.ts';
export { loadCypherBenchQuestions } from './oracles/cypher/loader.ts';
export { readSimpleKG, parseSimpleKG, SimpleKGError, type SimpleKG } from './oracles/cypher/simplekg.ts';
export { loadSimpleKG, ensureGraph } from './oracles/cypher/load-graph.ts';
export { startNeo4j, type StartOptions } from './oracles/cypher/server/start.ts';
export { Neo4jUnavailableError, type Neo4jServer } from './oracles/cypher/server/server.ts';
export { compareResults as compareCypherResults, orderMattersFor } from './oracles/cypher/compare.ts';
export { evaluateCypherBench, type CypherBenchEvaluation } from './oracles/cypher/evaluate.ts';
export { acquireNeo4j, type Acquired } from './oracles/cypher/server/acquire.ts';
