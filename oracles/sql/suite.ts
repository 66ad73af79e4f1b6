/** The bird suite's descriptor. BIRD-SQL: its spec (./spec.ts), data check and HERO data, loaded when used. */
import { packagePath } from '../../core/package-root.ts';
import { tasksOf, type SuiteDescriptor } from '../../core/suite-descriptor.ts';

const spec = () => import('./spec.ts');

export const birdSuite: SuiteDescriptor = {
  name: 'bird',
  prompt: packagePath('prompts', 'bird.md'),
  spec: async (config, options) => (await spec()).birdSpec(config, options),
  tasks: async (config, options) => tasksOf((await spec()).birdSpec(config, options)),
  checkData: async (data) => (await import('./data-check.ts')).checkBirdData(data),
  heroGroupedBy: 'db_id',
  heroSplits: async (data) => (await spec()).birdHeroSplits(data),
};
