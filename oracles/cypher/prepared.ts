/** The Cypher oracle's prepared task, the options it is built from and the runtime its parts share. */
import type { PreparedTask } from '../../core/oracle.ts';
import type { Neo4jAuth } from './driver.ts';
import type { GraphVariant } from './perturb.ts';
import type { CypherRunner } from './runner.ts';
import type { SimpleKG } from './simplekg.ts';
import type { ResultTable } from './values.ts';
import type { RowCase } from './verdict.ts';

export interface CypherPrepared extends PreparedTask {
  graph: string;
  /** The gold query's result on the loaded graph, computed once. */
  goldResult: ResultTable;
  /** The gold query contains `order by` (CypherBench's rule). */
  orderMatters: boolean;
  rows: RowCase[];
  /** Graph variants added by hardening, each one case. */
  variants: { id: string; variant: GraphVariant }[];
}

export interface CypherOracleOptions {
  /** Bolt URI of a Neo4j 5.20 holding the graphs' data (one graph per server, as CypherBench). */
  uri: string;
  /** The SimpleKG graphs the questions use (for the schema in prompts and to check what is loaded). */
  graphs: SimpleKG[];
  /** Names of graphs the server holds without a SimpleKG file at hand (not checked, no schema in prompts). */
  trustedGraphs?: string[];
  /** Server-side timeout of a candidate query (default 120 s, as CypherBench). */
  timeoutMs?: number;
  /** Timeout of gold queries (default 600 s; the original runs them without one). */
  goldTimeoutMs?: number;
  /** Longest result accepted (default 100,000 rows); longer ones are `too-large`. */
  maxRows?: number;
  /** Biggest result accepted (default 16 MiB, counting 8 bytes per value plus the bytes of strings); bigger ones are `too-large`, stopped as they stream in. */
  maxResultBytes?: number;
  /** Longest candidate query text run (default 16 KiB of UTF-8); longer ones are `too-complex`. Gold queries have no cap. */
  maxQueryBytes?: number;
  database?: string;
  /** Credentials (`neo4j.username` / `neo4j.password`); default: the configured ones. */
  auth?: Neo4jAuth;
  /** Graph variants tried per hardening round (default 8). */
  variantsPerRound?: number;
  /** Check each gold result against the question's answer_json (default true): catches a graph that is not the one the answers came from. */
  checkAnswers?: boolean;
  /** A candidate identical to the gold query passes without running, as in the original (default true). */
  exactStringShortcut?: boolean;
  /** Python's True == 1 in comparisons (default false). */
  boolEqualsInt?: boolean;
}

export const CYPHER_DEFAULTS = {
  timeoutMs: 120_000,
  goldTimeoutMs: 600_000,
  variantsPerRound: 8,
  checkAnswers: true,
  exactStringShortcut: true,
  boolEqualsInt: false,
} as const;

/** What the oracle's parts (hardener, simulator) share with it: the Neo4j runner and the comparison settings. */
export interface CypherRuntime {
  runner: CypherRunner;
  variantsPerRound: number;
  comparison: { boolEqualsInt: boolean };
}
