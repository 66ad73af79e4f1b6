/** The bigcodebench suite's descriptor. BigCodeBench: its spec (./spec.ts), data check and sandbox status, loaded when used. */
import { packagePath } from '../../../core/package-root.ts';
import { tasksOf, type SuiteDescriptor } from '../../../core/suite-descriptor.ts';

const spec = () => import('./spec.ts');

export const bigCodeBenchSuite: SuiteDescriptor = {
  name: 'bigcodebench',
  prompt: packagePath('prompts', 'bigcodebench.md'),
  spec: async (config, options) => (await spec()).bigCodeBenchSpec(config, options),
  tasks: async (config, options) => tasksOf((await spec()).bigCodeBenchSpec(config, options)),
  checkData: async (data) => (await import('./data-check.ts')).checkBigCodeBenchData(data),
  heroGroupedBy: null,
  engineStatus: async (config) => (await import('../sandbox/status.ts')).pythonSandboxStatus(config.python),
};
