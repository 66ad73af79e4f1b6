/** The BigCodeBench oracle on its fixtures in the sandbox, through the shared oracle conformance suite. */
import { fileURLToPath } from 'node:url';
import { describeOracleConformance } from '../../../testing/oracle-conformance.ts';
import { WorkerPool } from '../pool/pool.ts';
import { DEFAULT_MAX_PROGRAM_BYTES } from '../program-size.ts';
import { loadBigCodeBench } from './loader.ts';
import { bigCodeBenchOracle } from './oracle.ts';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/bigcodebench/bigcodebench.jsonl', import.meta.url));
/** Letter counts, e-mail addresses, mean / median / mode: standard library only, quick to run. */
const TASK_IDS = ['WitnessBCB/0', 'WitnessBCB/8', 'WitnessBCB/9'];

describeOracleConformance('bigcodebench', async () => {
  const pool = new WorkerPool({ size: 2 });
  return {
    oracle: bigCodeBenchOracle({ pool, timeLimitS: 10 }),
    tasks: loadBigCodeBench(FIXTURES).tasks.filter((t) => TASK_IDS.includes(t.id)),
    hostile: { huge: `# ${'x'.repeat(DEFAULT_MAX_PROGRAM_BYTES)}\n`, broken: 'def task_func(text:\n    return text\n' },
    wrongCandidate: (prepared) => `def ${prepared.entryPoint}(*args, **kwargs):\n    return None\n`,
    // The hidden tests: their method names and their assertions.
    goldOnlyMarkers: (prepared) => [
      ...prepared.caseIds,
      ...prepared.test
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.includes('assert')),
    ],
    maxProbes: 8,
    hostileMs: 15_000,
    teardown: () => pool.close(),
  };
});
