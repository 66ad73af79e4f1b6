/** The seed harnesses on the nl-rx fixtures (regex oracle) with the sim: see testing/meta-harness/seed-checks.ts. */
import { fileURLToPath } from 'node:url';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import { loadNlRx } from '../../oracles/regex/loader.ts';
import { regexOracle } from '../../oracles/regex/oracle.ts';
import { describeSeedChecks } from '../../testing/meta-harness/seed-checks.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describeSeedChecks({
  name: 'nl-rx',
  oracle: regexOracle() as unknown as Oracle<PreparedTask>,
  tasks: loadNlRx(here('../../fixtures/nl-rx')).tasks.slice(0, 4),
  prompt: here('../../prompts/nl-rx.md'),
});
