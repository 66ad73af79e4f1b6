#!/usr/bin/env node
// The `witness` command. It runs the compiled CLI in dist/ (built by `npm run build`, which
// `npm ci` runs through `prepare`). In a source checkout (tsconfig.build.json is there) whose
// dist/ is missing or older than a source file, it runs the TypeScript sources through tsx
// instead and says so in one line on a terminal, so a changed file is never silently ignored
// (and scripts and tests reading stderr see only the command's own output).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered without loading the commands, whose modules take most of the CLI's start-up.
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  if (args[0] === 'eval' && args[1] === 'bird' && !args.includes('--help') && !args.includes('-h')) {
    // Its time goes to SQLite processes: one starts now, on the core this thread leaves idle while
    // it loads the command, and the command's pool takes it over (oracles/sql/prestart.ts).
    await import('../dist/oracles/sql/prestart.js').then(
      (m) => m.prestartSqlChildren(),
      () => {}, // not built: the pool starts its own
    );
  }
  const sourceCheckout = existsSync(new URL('tsconfig.build.json', root));
  const stale = sourceCheckout ? (await import('../scripts/freshness.mjs')).staleness(fileURLToPath(root)) : null;
  if (stale === null) {
    const { main } = await import('../dist/cli/main.js');
    await main(process.argv);
  } else {
    if (process.stderr.isTTY)
      process.stderr.write(
        `witness: ${stale}; running the TypeScript sources through tsx (npm run build compiles them)\n`,
      );
    await import('./from-source.js');
  }
}
