import { defineBenchmark } from '../core/suite.ts';
import { suiteStrategies } from './strategy-inputs.ts';
import { declareNotRun, pythonSandboxStatus } from './not-run.ts';
import { dsCodeBenchSpec } from './registry.ts';

// DSCodeBench-style tasks × the six feedback strategies, HERO-T and its baselines (see registry.ts).
// Without a Python sandbox on this machine the suite is reported as not run, with the reason.
const sandbox = await pythonSandboxStatus();
if (sandbox.ok) {
  const spec = dsCodeBenchSpec();
  defineBenchmark({ ...spec, strategies: suiteStrategies(spec) });
} else {
  declareNotRun('dscodebench', sandbox.reason);
}
