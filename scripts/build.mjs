#!/usr/bin/env node
// `npm run build` (and `npm ci`, through `prepare`): compiles the TypeScript sources to dist/
// with tsconfig.build.json and copies the runtime assets next to the compiled modules. It builds
// into a temporary folder and then swaps it in, so a `witness` running meanwhile never sees a
// half-written dist/. dist/.build-stamp carries the build's start time and lists its inputs: the
// launcher runs the sources instead when one of them changed after it (scripts/freshness.mjs).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputs, isAsset } from './build-inputs.mjs';
import { bundleSqlChild } from './bundle-child.mjs';
import { STAMP } from './freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = new Date();
const dist = join(root, 'dist');
const staging = join(root, `.dist-build-${process.pid}`);

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
rmSync(staging, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', staging], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.stderr.write(`build: tsc -p tsconfig.build.json failed (exit ${compiled.status ?? compiled.signal})\n`);
  process.exit(1);
}

const inputs = buildInputs(root);
let assets = 0;
for (const file of inputs.filter(isAsset)) {
  mkdirSync(dirname(join(staging, file)), { recursive: true });
  copyFileSync(join(root, file), join(staging, file));
  assets += 1;
}

// The SQLite child as one CommonJS file: every `witness eval bird` waits for one to start, and Node
// starts a CommonJS script with no imports about 9 ms sooner than the ES module and its three
// imports (oracles/sql/prestart.ts picks it when it is there; the sources run child.mjs).
const bundled = await bundleSqlChild(join(staging, 'oracles/sql/child.mjs'), join(staging, 'oracles/sql/child.cjs'));
if (!bundled) {
  rmSync(staging, { recursive: true, force: true });
  process.exit(1);
}

const stamp = join(staging, STAMP);
writeFileSync(stamp, `${JSON.stringify({ startedAt: started.toISOString(), inputs })}\n`);
utimesSync(stamp, started, started);

const old = join(root, `.dist-old-${process.pid}`);
try {
  renameSync(dist, old);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
renameSync(staging, dist);
rmSync(old, { recursive: true, force: true });
process.stdout.write(`build: dist/ compiled (${assets} assets copied) in ${Date.now() - started.getTime()} ms\n`);
