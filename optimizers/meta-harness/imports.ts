/**
 * The static side of "imports only the SDK": every import of a harness's source, and the ways
 * around an import a model might try (dynamic `import()`, `require`, `process.binding`, reaching
 * globals through `globalThis`, code from strings). Comments and quoted strings are blanked first,
 * so prompt text that merely mentions these words is not flagged. Pure.
 */
import { SDK_MODULE } from './transpile.ts';

export interface SourceFinding {
  rule: string;
  line: number;
  text: string;
}

/** The source with comments and the contents of '…' and "…" strings replaced by spaces (line numbers kept). */
export function blankCommentsAndStrings(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, (match) => {
    if (match.startsWith('/')) return match.replace(/[^\n]/g, ' ');
    return match[0] + match.slice(1, -1).replace(/[^\n]/g, ' ') + match.at(-1);
  });
}

const RULES: readonly { rule: string; pattern: RegExp }[] = [
  { rule: 'dynamic import()', pattern: /\bimport\s*\(/g },
  { rule: 'import.meta', pattern: /\bimport\s*\.\s*meta\b/g },
  { rule: 'require', pattern: /\brequire\s*[(.[]/g },
  { rule: 'process', pattern: /\bprocess\s*[.[]/g },
  { rule: 'globalThis', pattern: /\bglobalThis\b|\b(global|self|window)\s*[.[]/g },
  { rule: 'code from strings', pattern: /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|\.constructor\s*\(/g },
  { rule: 'module internals', pattern: /\b(module|exports|__dirname|__filename|Deno|Bun)\s*[.[]/g },
  { rule: 'WebAssembly', pattern: /\bWebAssembly\b/g },
  { rule: 'network', pattern: /\b(fetch|XMLHttpRequest|WebSocket|EventSource)\s*\(/g },
];

const IMPORT_FROM = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?(['"])([^'"]+)\1/g;

/** Specifiers of the static imports and re-exports (`import … from 'x'`, `import 'x'`, `export … from 'x'`). */
export function staticImports(source: string): { specifier: string; line: number }[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m) => m.replace(/[^\n]/g, ' '));
  return [...code.matchAll(IMPORT_FROM)].map((m) => ({
    specifier: m[2] as string,
    line: code.slice(0, m.index).split('\n').length,
  }));
}

/** Everything that breaks "imports only the SDK"; empty when the source is clean. */
export function importFindings(source: string): SourceFinding[] {
  const findings: SourceFinding[] = [];
  for (const { specifier, line } of staticImports(source)) {
    if (specifier !== SDK_MODULE)
      findings.push({ rule: 'import', line, text: `imports "${specifier}" (only ${SDK_MODULE} is allowed)` });
  }
  const code = blankCommentsAndStrings(source);
  const lines = code.split('\n');
  for (const { rule, pattern } of RULES) {
    for (const match of code.matchAll(pattern)) {
      const line = code.slice(0, match.index).split('\n').length;
      findings.push({ rule, line, text: (lines[line - 1] ?? '').trim().slice(0, 160) });
    }
  }
  return findings.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
}
