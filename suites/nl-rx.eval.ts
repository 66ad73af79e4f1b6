import { defineBenchmark } from '../core/suite.ts';
import { dynamicCheatsheet, heroT, reactRefiner } from '../strategies/hero/index.ts';
import { verifiedTrainExamples } from '../strategies/hero/examples.ts';
import { pickStrategies } from '../strategies/index.ts';
import { nlRxSpec } from './registry.ts';

// A-CEGIS on the NL-RX fixture tasks: every task × the six feedback strategies of the ablation grid,
// plus HERO-T and its baselines (ReAct-style refinement, Dynamic Cheatsheet). HERO-T uses the prompt
// learned by `witness optimize hero --suite nl-rx` when its report exists.
const spec = nlRxSpec();
const examples = () => verifiedTrainExamples(spec.tasks.tasks, spec.oracle);
const report = '.witness/hero/nl-rx/hero-report.json';
defineBenchmark({
  ...spec,
  strategies: [...pickStrategies(), heroT({ report, examples }), reactRefiner({ examples }), dynamicCheatsheet()],
});
