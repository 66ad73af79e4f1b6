import { defineBenchmark } from '../core/suite.ts';
import { suiteStrategies } from './strategy-inputs.ts';
import { nlRxSpec } from './registry.ts';

// A-CEGIS on the NL-RX fixture tasks: every task × the six feedback strategies of the ablation grid,
// plus HERO-T and its baselines (ReAct-style refinement, Dynamic Cheatsheet).
const spec = nlRxSpec();
defineBenchmark({ ...spec, strategies: suiteStrategies(spec) });
