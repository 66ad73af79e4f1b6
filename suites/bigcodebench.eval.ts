import { runConfig } from '../core/run-config.ts';
import { defineBenchmark } from '../core/suite.ts';
import { bigCodeBenchSpec } from '../oracles/python/bigcodebench/spec.ts';
import { pythonSandboxStatus } from '../oracles/python/sandbox/status.ts';
import { suiteStrategies } from './strategy-inputs.ts';
import { declareNotRun } from './not-run.ts';

// BigCodeBench-style tasks × the six feedback strategies, HERO-T and its baselines (see
// oracles/python/bigcodebench/suite.ts). Without a Python sandbox on this machine the suite is
// reported as not run, with the reason.
const { config } = runConfig();
const sandbox = await pythonSandboxStatus(config.python);
if (sandbox.ok) {
  const spec = bigCodeBenchSpec(config);
  defineBenchmark({ ...spec, strategies: suiteStrategies(spec, config.run.strategies) });
} else {
  declareNotRun('bigcodebench', sandbox.reason);
}
