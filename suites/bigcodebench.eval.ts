import { defineBenchmark } from '../core/suite.ts';
import { pickStrategies } from '../strategies/index.ts';
import { heroStrategies } from './hero-strategies.ts';
import { bigCodeBenchSpec } from './registry.ts';

// BigCodeBench-style tasks × the six feedback strategies, HERO-T and its baselines (see registry.ts).
const spec = bigCodeBenchSpec();
defineBenchmark({ ...spec, strategies: [...pickStrategies(), ...heroStrategies(spec)] });
