/** `npm run perf`: every performance benchmark, one after the other, printing figures (no pass/fail on time). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const scripts = [
  'regex.ts',
  'extract.ts',
  'suite.ts',
  'sql.ts',
  'sql-bombs.ts',
  'bird-eval.ts',
  'python.ts',
  'python-bombs.ts',
  'report.ts',
  'scale.ts',
  'nl-rx-release.ts',
  'cypher.ts',
  'cypher-reuse.ts',
  'regex-equivalence.ts',
  'models.ts',
  'data-load.ts',
  'harness-sandbox.ts',
  'harness-protocol.ts',
  'startup.ts',
  'overhead.ts',
];
let failed = false;
for (const script of scripts) {
  const path = fileURLToPath(new URL(script, import.meta.url));
  if (!existsSync(path)) continue;
  console.log(`\n=== perf/${script}`);
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--enable-experimental-regexp-engine-on-excessive-backtracks', path],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
