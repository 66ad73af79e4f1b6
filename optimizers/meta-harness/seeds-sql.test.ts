/** The seed harnesses on the BIRD fixtures (SQL oracle) with the sim: see testing/meta-harness/seed-checks.ts. */
import { fileURLToPath } from 'node:url';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import { BIRD_FIXTURES, loadBird } from '../../oracles/sql/loader.ts';
import { sqlOracle } from '../../oracles/sql/oracle.ts';
import { describeSeedChecks } from '../../testing/meta-harness/seed-checks.ts';

describeSeedChecks({
  name: 'bird',
  oracle: sqlOracle({ mode: 'set', ves: false }) as unknown as Oracle<PreparedTask>,
  tasks: loadBird(BIRD_FIXTURES).tasks.slice(0, 4),
  prompt: fileURLToPath(new URL('../../prompts/bird.md', import.meta.url)),
});
