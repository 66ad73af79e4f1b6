import { runConfig } from '../core/run-config.ts';
import { defineBenchmark } from '../core/suite.ts';
import { dsCodeBenchSpec } from '../oracles/python/dscodebench/spec.ts';
import { pythonSandboxStatus } from '../oracles/python/sandbox/status.ts';
import { suiteStrategies } from './strategy-inputs.ts';
import { declareNotRun } from './not-run.ts';

// DSCodeBench-style tasks × the six feedback strategies, HERO-T and its baselines (see
// oracles/python/dscodebench/suite.ts). Without a Python sandbox on this machine the suite is
// reported as not run, with the reason.
const { config } = runConfig();
const sandbox = await pythonSandboxStatus(config.python);
if (sandbox.ok) {
  const spec = dsCodeBenchSpec(config);
  defineBenchmark({ ...spec, strategies: suiteStrategies(spec, config.run.strategies) });
} else {
  declareNotRun('dscodebench', sandbox.reason);
}
