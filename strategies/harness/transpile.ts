/**
 * Candidate TypeScript to the JavaScript the child runs, with esbuild (the compiler tsx already
 * brings): types stripped, ES module output, and the only import allowed, `witness-harness`,
 * pointed at the SDK runtime next to the child runner. Any other import is an error here.
 */
import { build } from 'esbuild';

export const SDK_MODULE = 'witness-harness';

export type TranspileResult = { ok: true; code: string } | { ok: false; errors: string[] };

/** Compiles one harness module (`source`, named `file` in messages) to an ES module importing ./sdk.mjs. */
export async function transpileHarness(source: string, file: string): Promise<TranspileResult> {
  try {
    const result = await build({
      stdin: { contents: source, loader: 'ts', sourcefile: file, resolveDir: '/' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      target: 'node20',
      logLevel: 'silent',
      plugins: [
        {
          name: 'witness-harness-only',
          setup(b) {
            b.onResolve({ filter: /.*/ }, (args) =>
              args.path === SDK_MODULE
                ? { path: './sdk.mjs', external: true }
                : {
                    errors: [{ text: `import of "${args.path}" is not allowed: a harness imports only ${SDK_MODULE}` }],
                  },
            );
          },
        },
      ],
    });
    const code = result.outputFiles[0]?.text;
    if (code === undefined) return { ok: false, errors: [`${file}: the compiler produced no output`] };
    return { ok: true, code };
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { line: number; column: number } | null }[] })
      .errors;
    if (!errors) return { ok: false, errors: [`${file}: ${(error as Error).message}`] };
    return {
      ok: false,
      errors: errors.map(
        (e) => `${file}${e.location ? `:${e.location.line}:${e.location.column + 1}` : ''}: ${e.text}`,
      ),
    };
  }
}
