/**
 * vitest global setup (vitest.config.ts `globalSetup`): starts the Neo4j broker once per run in the
 * main process and provides its URL to every project as `witnessNeo4jBroker`. Nothing starts
 * Neo4j until a Cypher test or suite asks (see acquire.ts), so unrelated test files never wait
 * for it; the teardown stops whatever was started.
 */
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../../core/config.ts';
import { startBroker } from './broker.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the Neo4j broker for this vitest run (oracles/cypher/server/broker.ts). */
    witnessNeo4jBroker: string;
  }
}

/** Starts the broker in the root project only; the projects see the root's provided values. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!project.isRootProject()) return undefined;
  // The settings are loaded when a test first asks for Neo4j: a run that never does needs none.
  const broker = await startBroker({ neo4j: () => loadConfig(project.vitest.config.root).config.neo4j });
  project.provide('witnessNeo4jBroker', broker.url);
  return () => broker.close();
}
