import { defineBenchmark } from '../core/suite.ts';
import { pickStrategies } from '../strategies/index.ts';
import { heroStrategies } from './hero-strategies.ts';
import { dsCodeBenchSpec } from './registry.ts';

// DSCodeBench-style tasks × the six feedback strategies, HERO-T and its baselines (see registry.ts).
const spec = dsCodeBenchSpec();
defineBenchmark({ ...spec, strategies: [...pickStrategies(), ...heroStrategies(spec)] });
