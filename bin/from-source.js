#!/usr/bin/env node
// The `witness` command from the TypeScript sources, through tsx (a development dependency): what
// bin/witness.js falls back to in a source checkout without a current dist/.
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  process.stderr.write('witness: dist/ is not current and tsx is not installed: run `npm run build` (or `npm ci`)\n');
  process.exit(1);
}
register();
const { main } = await import('../cli/main.ts');
await main(process.argv);
