import { describe, expect, it } from 'vitest';
import { importFindings } from './imports.ts';

// Sources on which the regex scans this check once used took seconds to hours (2,000 repetitions of
// `import ` already took 9 s). The syntax tree comes from the compiler's parser, linear in the
// source; each stays under the 256 KiB a harness may have. Syntax errors are not findings here:
// validation's compile step refuses them.
describe('hostile sources are checked in bounded time', () => {
  const hostile: [name: string, source: string, findings: number][] = [
    ['import followed by spaces', 'import ' + ' '.repeat(200_000), 0],
    ['a chain of imports without a quote', 'import a '.repeat(25_000), 25_000],
    ['from without a quote', 'import a' + ' from '.repeat(35_000), 1],
    ['unclosed block comments', '/*'.repeat(100_000), 0],
    ['escaped quotes that never close', "'\\'".repeat(70_000), 0],
    ['alternating unclosed quotes', `'"\\`.repeat(70_000), 0],
    ['many findings on many lines', 'process.x\n'.repeat(20_000), 20_000],
  ];
  for (const [name, source, count] of hostile) {
    it(
      name,
      async () => {
        const started = performance.now();
        const findings = await importFindings(source);
        expect(findings).toHaveLength(count);
        // Linear: about a second here; the bound leaves room for a loaded machine.
        expect(performance.now() - started).toBeLessThan(15_000);
      },
      30_000,
    );
  }
});
