import { runConfig } from '../core/run-config.ts';
import { defineBenchmark } from '../core/suite.ts';
import { nlRxSpec } from '../oracles/regex/spec.ts';
import { suiteStrategies } from './strategy-inputs.ts';

// A-CEGIS on the NL-RX fixture tasks: every task × the six feedback strategies of the ablation grid,
// plus HERO-T and its baselines (ReAct-style refinement, Dynamic Cheatsheet).
const { config } = runConfig();
const spec = nlRxSpec(config);
defineBenchmark({ ...spec, strategies: suiteStrategies(spec, config.run.strategies) });
