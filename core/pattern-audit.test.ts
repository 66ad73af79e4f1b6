/**
 * The pattern audit: every regex literal in the sources (tests and test support aside) is checked
 * with scslre for super-linear backtracking. A pattern it flags must be listed below with why it
 * never sees text from outside (model replies, dataset text, candidate programs or output) —
 * anything that does is a hand-written scan instead (see core/extract.ts, core/hostile/shapes.ts).
 * `new RegExp` sites are listed the same way, each with what it compiles and why that is safe.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync, Visitor } from 'oxc-parser';
import { analyse } from 'scslre';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './package-root.ts';

const FOLDERS = ['core', 'oracles', 'strategies', 'optimizers', 'reports', 'suites', 'cli', 'perf'];
// Test support lives in testing/, which is not among the folders.
const SKIPPED = /\.test\.ts$|[\\/]core[\\/]hostile[\\/]|[\\/]fixtures[\\/]/;

/** Flagged patterns that only ever see our own text, by file and pattern. */
const TRUSTED_FLAGGED: Record<string, string> = {
  'cli/optimize-meta-harness.ts /\\..*$/': 'an ISO date of this run',
  'core/models/openai.ts /\\/+$/': "the user's own base URL from the configuration",
  'reports/format.ts /\\B(?=(\\d{3})+(?!\\d))/g': 'the digits of a number we format (at most 16)',
};

/** `new RegExp(…)` sites, by file: what they compile and why it cannot backtrack without bound. */
const REGEXP_CONSTRUCTIONS: Record<string, string> = {
  'core/steering.ts': 'an escaped steering term of ours between fixed boundaries: a literal search',
  'optimizers/hero/leak.ts': 'an escaped gold literal between fixed one-character boundaries: a literal search',
  'optimizers/meta-harness/validate.ts': 'an escaped task id between quotes or boundaries: a literal search',
  'optimizers/meta-harness/proposer/tools.ts':
    "the proposer's grep pattern: run by timedMatcher, line by line on lines cut to a bounded length, under the grep deadline",
  'oracles/regex/ecmascript.ts': "a candidate regex, only to read V8's syntax verdict (never executed here)",
  'perf/cypher.ts': 'a /proc status field name of ours',
  'perf/regex.ts': 'benchmark patterns of ours',
  'perf/scale.ts': 'a command-line option name of ours',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !SKIPPED.test(path) ? [path] : [];
  });
}

interface Finding {
  file: string;
  pattern: string;
  report: string;
}

function audit(): { flagged: Finding[]; constructions: Set<string> } {
  const flagged: Finding[] = [];
  const constructions = new Set<string>();
  for (const path of FOLDERS.flatMap((folder) => sourceFiles(join(PACKAGE_ROOT, folder)))) {
    const file = relative(PACKAGE_ROOT, path).replaceAll('\\', '/');
    const { program } = parseSync(file, readFileSync(path, 'utf8'));
    new Visitor({
      Literal(node) {
        if (!('regex' in node) || !node.regex) return;
        const { pattern, flags } = node.regex;
        const reports = analyse({ source: pattern, flags }).reports;
        if (reports.length > 0)
          flagged.push({ file, pattern: `/${pattern}/${flags}`, report: reports.map((r) => r.type).join(', ') });
      },
      NewExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'RegExp') constructions.add(file);
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'RegExp') constructions.add(file);
      },
    }).visit(program);
  }
  return { flagged, constructions };
}

describe('the pattern audit', () => {
  const { flagged, constructions } = audit();

  it('finds no super-linear pattern but the listed ones, which only see our own text', () => {
    const unlisted = flagged.filter((f) => !(`${f.file} ${f.pattern}` in TRUSTED_FLAGGED));
    expect(unlisted).toEqual([]);
  });

  it('lists every RegExp construction with why it is safe', () => {
    expect([...constructions].sort()).toEqual(Object.keys(REGEXP_CONSTRUCTIONS).sort());
  });

  it('lists nothing that no longer exists', () => {
    const present = new Set(flagged.map((f) => `${f.file} ${f.pattern}`));
    expect(Object.keys(TRUSTED_FLAGGED).filter((key) => !present.has(key))).toEqual([]);
  });
});
