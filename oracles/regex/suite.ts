/** The nl-rx suite's descriptor. NL-RX: its spec (./spec.ts) and data check, loaded when used. */
import { packagePath } from '../../core/package-root.ts';
import { tasksOf, type SuiteDescriptor } from '../../core/suite-descriptor.ts';

const spec = () => import('./spec.ts');

export const nlRxSuite: SuiteDescriptor = {
  name: 'nl-rx',
  prompt: packagePath('prompts', 'nl-rx.md'),
  spec: async (config, options) => (await spec()).nlRxSpec(config, options),
  tasks: async (config, options) => tasksOf((await spec()).nlRxSpec(config, options)),
  checkData: async (data) => (await import('./data-check.ts')).checkNlRxData(data),
  heroGroupedBy: null,
};
