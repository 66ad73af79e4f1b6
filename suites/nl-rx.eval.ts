import { defineBenchmark } from '../core/suite.ts';
import { pickStrategies } from '../strategies/index.ts';
import { nlRxSpec } from './registry.ts';

// A-CEGIS on the NL-RX fixture tasks: every task × the six feedback strategies of the ablation grid.
defineBenchmark({ ...nlRxSpec(), strategies: pickStrategies() });
