/** A running Neo4j the Cypher oracle can use, however it was obtained. */

/** The three ways Witness gets a Neo4j 5.20, in the order it tries them. */
export type Neo4jWay = 'uri' | 'docker' | 'launcher';

export interface Neo4jServer {
  /** Bolt URI, e.g. `bolt://127.0.0.1:41343`. */
  uri: string;
  way: Neo4jWay;
  /** Process id of the launcher's JVM (launcher only). */
  pid?: number;
  /** Time from starting to Bolt being ready (0 for NEO4J_URI). */
  startupMs: number;
  /** One line for logs: how this server was obtained. */
  describe: string;
  /** Stops what Witness started (nothing for NEO4J_URI). Idempotent. */
  stop(): Promise<void>;
}

export interface WayFailure {
  way: Neo4jWay;
  reason: string;
}

const WAY_NAMES: Record<Neo4jWay, string> = {
  uri: 'NEO4J_URI',
  docker: 'Docker (dockerode, image neo4j:5.20.0-community)',
  launcher: 'Java launcher (neo4j/, Neo4j 5.20 jars from Maven Central)',
};

/** No Neo4j could be obtained: says which ways were tried and why each failed. */
export class Neo4jUnavailableError extends Error {
  constructor(readonly attempts: WayFailure[]) {
    super(
      [
        'Neo4j 5.20 is not available, so the Cypher oracle cannot run. Tried:',
        ...attempts.map((a, i) => `  ${i + 1}. ${WAY_NAMES[a.way]}: ${a.reason}`),
        'Set NEO4J_URI to a running Neo4j 5.20, start a Docker engine, or install Java 17+ and Maven (see docs/cypher.md).',
      ].join('\n'),
    );
    this.name = 'Neo4jUnavailableError';
  }
}
