// The suite perf/overhead.ts runs: the nl-rx fixture tasks × the feedback strategies named in
// WITNESS_PERF_STRATEGIES (default diagnostic and error-only: every episode is independent of the others).
import { defineBenchmark } from '../core/suite.ts';
import { pickStrategies } from '../strategies/index.ts';
import { nlRxSpec } from '../suites/registry.ts';

const names = (process.env.WITNESS_PERF_STRATEGIES ?? 'diagnostic,error-only').split(',').filter(Boolean);
defineBenchmark({ ...nlRxSpec(), strategies: pickStrategies(...names) });
