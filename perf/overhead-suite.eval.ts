// The suite perf/overhead.ts runs: the nl-rx fixture tasks × the feedback strategies named in
// WITNESS_PERF_STRATEGIES (default diagnostic and error-only: every episode is independent of the others).
import { runConfig } from '../core/run-config.ts';
import { defineBenchmark } from '../core/suite.ts';
import { pickStrategies } from '../strategies/index.ts';
import { nlRxSpec } from '../oracles/regex/spec.ts';

const names = (process.env.WITNESS_PERF_STRATEGIES ?? 'diagnostic,error-only').split(',').filter(Boolean);
defineBenchmark({ ...nlRxSpec(runConfig().config), strategies: pickStrategies(...names) });
