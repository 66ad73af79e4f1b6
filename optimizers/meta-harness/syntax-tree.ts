/**
 * A harness's syntax tree, from TypeScript 7's own parser (the `typescript/unstable/async` API,
 * which runs the native compiler as a child process: a source that breaks the parser breaks that
 * process, not this one). The source is served from memory; nothing is resolved or typechecked.
 */
import type { ChildProcess } from 'node:child_process';
import { API } from 'typescript/unstable/async';
import type { SourceFile } from 'typescript/unstable/ast';

const ROOT = '/witness-harness-source';
const CONFIG = `${ROOT}/tsconfig.json`;
const FILE = `${ROOT}/harness.ts`;

/** The tree, or why there is none (the parser did not answer in time, or could not start). */
export type ParsedSource = { ok: true; tree: SourceFile } | { ok: false; error: string };

/** Parses one TypeScript module; gives up after `timeoutMs`. */
export async function parseHarnessSource(source: string, timeoutMs = 20_000): Promise<ParsedSource> {
  const files: Record<string, string> = {
    [CONFIG]: JSON.stringify({
      compilerOptions: { noLib: true, noResolve: true, types: [], target: 'ES2022', module: 'ESNext' },
      files: ['harness.ts'],
    }),
    [FILE]: source,
  };
  const api = new API({
    cwd: ROOT,
    fs: {
      readFile: (name) => files[name] ?? null,
      fileExists: (name) => name in files,
      directoryExists: (name) => name === ROOT || name === '/',
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ParsedSource>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: `the parser gave no tree within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const parse = async (): Promise<ParsedSource> => {
    const snapshot = await api.updateSnapshot({ openProject: CONFIG });
    const tree = await snapshot.getProjects()[0]?.program.getSourceFile(FILE);
    return tree ? { ok: true, tree } : { ok: false, error: 'the parser gave no tree' };
  };
  let parsed: ParsedSource | undefined;
  try {
    parsed = await Promise.race([parse(), timeout]);
    return parsed;
  } catch (error) {
    return { ok: false, error: `the parser failed: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
    if (parsed?.ok) await api.close().catch(() => {});
    else kill(api);
  }
}

/** Kills the compiler process of an API that did not answer (the API offers no other way). */
function kill(api: API): void {
  (api as unknown as { client?: { process?: ChildProcess } }).client?.process?.kill('SIGKILL');
  void api.close().catch(() => {});
}
