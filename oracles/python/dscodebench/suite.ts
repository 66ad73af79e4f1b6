/** The dscodebench suite's descriptor. DSCodeBench: its spec (./spec.ts), data check and sandbox status, loaded when used. */
import { packagePath } from '../../../core/package-root.ts';
import { tasksOf, type SuiteDescriptor } from '../../../core/suite-descriptor.ts';

const spec = () => import('./spec.ts');

export const dsCodeBenchSuite: SuiteDescriptor = {
  name: 'dscodebench',
  prompt: packagePath('prompts', 'dscodebench.md'),
  spec: async (config, options) => (await spec()).dsCodeBenchSpec(config, options),
  tasks: async (config, options) => tasksOf((await spec()).dsCodeBenchSpec(config, options)),
  checkData: async (data) => (await import('./data-check.ts')).checkDsCodeBenchData(data),
  heroGroupedBy: null,
  engineStatus: async (config) => (await import('../sandbox/status.ts')).pythonSandboxStatus(config.python),
};
