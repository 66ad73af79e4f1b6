/**
 * Typechecking a harness against the SDK with the project's `tsc` (TypeScript 7, the native
 * compiler): a temporary project holding the SDK's declarations and the candidate, strict, no DOM
 * and no Node types (a harness can reach nothing but the SDK and the language).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SDK_DECLARATIONS = fileURLToPath(new URL('../../strategies/harness/sdk/witness-harness.d.ts', import.meta.url));

/** The globals a harness gets besides the language's own: console (its output goes to the trace) and timers. */
const GLOBALS = [
  'declare var console: { log(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void };',
  'declare function setTimeout(callback: () => void, ms?: number): unknown;',
  'declare function clearTimeout(handle: unknown): void;',
  '',
].join('\n');

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2023'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    isolatedModules: true,
    verbatimModuleSyntax: true,
  },
  files: ['witness-harness.d.ts', 'globals.d.ts', 'harness.ts'],
};

export interface TypecheckResult {
  ok: boolean;
  /** tsc's diagnostics, with the candidate named `file`. */
  errors: string[];
  ms: number;
}

function tscBinary(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
}

/** Typechecks one harness source (named `file` in the diagnostics). */
export async function typecheckHarness(source: string, file: string, timeoutMs = 60_000): Promise<TypecheckResult> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'witness-typecheck-'));
  try {
    copyFileSync(SDK_DECLARATIONS, join(dir, 'witness-harness.d.ts'));
    writeFileSync(join(dir, 'globals.d.ts'), GLOBALS);
    writeFileSync(join(dir, 'harness.ts'), source);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [tscBinary(), '-p', '.', '--pretty', 'false'], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
    const errors = output
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => l.replace(/^harness\.ts/, file));
    return {
      ok: code === 0,
      errors: code === 0 ? [] : errors.length ? errors : [`tsc exited with ${code}`],
      ms: Math.round(performance.now() - started),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
