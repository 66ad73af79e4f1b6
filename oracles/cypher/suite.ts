/** The cypherbench suite's descriptor. CypherBench: its spec (./spec.ts, one Neo4j per graph) and data check, loaded when used. */
import { packagePath } from '../../core/package-root.ts';
import type { SuiteDescriptor } from '../../core/suite-descriptor.ts';

const spec = () => import('./spec.ts');

export const cypherBenchSuite: SuiteDescriptor = {
  name: 'cypherbench',
  prompt: packagePath('prompts', 'cypherbench.md'),
  spec: async (config, options) => (await spec()).startedCypherBenchSpec(config, options),
  tasks: async (config, options) => (await spec()).cypherBenchTasks(config, options),
  checkData: async (data) => (await import('./data-check.ts')).checkCypherBenchData(data),
  heroGroupedBy: 'graph',
};
