/** The DSCodeBench oracle on its fixtures in the sandbox, through the shared oracle conformance suite. */
import { fileURLToPath } from 'node:url';
import { describeOracleConformance, wholeOccurrence } from '../../../testing/oracle-conformance.ts';
import { WorkerPool } from '../pool/pool.ts';
import { DEFAULT_MAX_PROGRAM_BYTES } from '../program-size.ts';
import { loadDsCodeBench } from './loader.ts';
import { dsCodeBenchOracle, type DsPrepared } from './oracle.ts';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/dscodebench/dscodebench.jsonl', import.meta.url));
/** Running maximum, another standard-library task, pairwise distances in numpy. */
const TASK_IDS = ['witness_std_002', 'witness_std_003', 'witness_np_004'];

describeOracleConformance('dscodebench', async () => {
  const pool = new WorkerPool({ size: 2 });
  const oracle = dsCodeBenchOracle({ pool, candidateDeadlineMs: 10_000 });
  /** The reference's outputs on the observed inputs (what the observer would show for the gold), minus what the inputs themselves show. */
  async function referenceOutputs(prepared: DsPrepared): Promise<string[]> {
    const seen = await oracle.observer!.observe(prepared, { source: prepared.task.gold, extraction: 'code-block' });
    if (!seen.ok) throw new Error(`task ${prepared.task.id}: observing the reference failed: ${seen.error?.message}`);
    // One entry per input; a numpy repr continues on lines that start with a space.
    const pairs = seen.output.split(/\n(?! )/).map((entry) => entry.split(' -> '));
    const inputs = pairs.map(([input]) => input ?? '').join('\n');
    return pairs
      .map(([, output]) => output ?? '')
      .filter((output) => output.length >= 3 && wholeOccurrence(inputs, output) < 0);
  }
  return {
    oracle,
    tasks: loadDsCodeBench(FIXTURES).tasks.filter((t) => TASK_IDS.includes(t.id)),
    hostile: {
      huge: `# ${'x'.repeat(DEFAULT_MAX_PROGRAM_BYTES)}\n`,
      broken: 'def running_max(values:\n    return values\n',
    },
    wrongCandidate: (prepared) => `def ${prepared.entry}(*args, **kwargs):\n    return None\n`,
    goldOnlyMarkers: referenceOutputs,
    maxProbes: 20,
    hostileMs: 15_000,
    teardown: () => pool.close(),
  };
});
