import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankCommentsAndStrings, importFindings, staticImports } from './imports.ts';

// The regexes the scans replaced (backtracking: quadratic or worse on some sources), as references.
function backtrackingBlank(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, (match) => {
    if (match.startsWith('/')) return match.replace(/[^\n]/g, ' ');
    return match[0] + match.slice(1, -1).replace(/[^\n]/g, ' ') + match.at(-1);
  });
}
function backtrackingImports(source: string): { specifier: string; line: number }[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m) => m.replace(/[^\n]/g, ' '));
  return [...code.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?(['"])([^'"]+)\1/g)].map(
    (m) => ({ specifier: m[2] as string, line: code.slice(0, m.index).split('\n').length }),
  );
}

const PIECES = [
  'import',
  'export',
  'type',
  'from',
  ' ',
  ' ',
  '\t',
  '\n',
  '\r',
  "'",
  '"',
  '\\',
  'x',
  'node:fs',
  '{ a, b }',
  '*',
  ',',
  '//',
  '/*',
  '*/',
  '\u2028',
  'process.',
];
const source = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((parts) => parts.join(''));

describe('the source scans find what the old regexes found', () => {
  it('blanks the same comments and strings', () => {
    fc.assert(
      fc.property(source, (s) => {
        expect(blankCommentsAndStrings(s)).toBe(backtrackingBlank(s));
      }),
      { numRuns: 5_000, seed: 22 },
    );
  });

  it('finds the same imports on the same lines', () => {
    fc.assert(
      fc.property(source, (s) => {
        expect(staticImports(s)).toEqual(backtrackingImports(s));
      }),
      { numRuns: 5_000, seed: 22 },
    );
  });
});

describe('hostile sources are scanned in linear time', () => {
  // Each took the regexes seconds to hours: 2,000 repetitions of `import ` already took 9 s.
  const hostile: [string, string][] = [
    ['import followed by spaces', 'import ' + ' '.repeat(200_000)],
    ['a chain of imports without a quote', 'import a '.repeat(50_000)],
    ['from without a quote', 'import a' + ' from '.repeat(50_000)],
    ['unclosed block comments', '/*'.repeat(200_000)],
    ['escaped quotes that never close', "'\\'".repeat(200_000)],
    ['alternating unclosed quotes', `'"\\`.repeat(100_000)],
    ['many findings on many lines', 'process.x\n'.repeat(50_000)],
  ];
  for (const [name, text] of hostile) {
    it(name, () => {
      const started = performance.now();
      staticImports(text);
      importFindings(text);
      // Linear: well under a second here; the bound leaves room for a loaded machine.
      expect(performance.now() - started).toBeLessThan(5_000);
    });
  }
});
