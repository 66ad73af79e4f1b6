import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeBlocks } from './extract.ts';
import { backtrackingCodeBlocks } from '../testing/extract-reference.ts';

// Pieces replies are made of, weighted towards what makes fences tricky: runs of different
// lengths, indentation, trailing text, languages, CR, blank lines and unclosed openings.
const PIECES = [
  '```',
  '````',
  '~~~',
  '~~~~',
  '`',
  '``',
  '~',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n',
  '\n',
  '\r\n',
  'python',
  'sql',
  'Regex',
  'c++',
  'x',
  'SELECT 1',
  'a b',
  '#',
  '.-_',
  '\u00a0',
  '\u2028',
  'é',
];
const reply = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''));

describe('the fence scanner finds what the old regex found', () => {
  it('on random replies made of fence pieces (where the regex is fast)', () => {
    fc.assert(
      fc.property(reply, (text) => {
        expect(codeBlocks(text)).toEqual(backtrackingCodeBlocks(text));
      }),
      { numRuns: 5_000, seed: 22 },
    );
  });

  it('on well-formed replies with blocks between prose', () => {
    const block = fc.record({
      fence: fc.constantFrom('```', '````', '~~~'),
      indent: fc.constantFrom('', ' ', '\t'),
      language: fc.constantFrom('', 'sql', 'python', 'regex', ' js', 'text extra words'),
      body: fc.array(fc.constantFrom('x = 1', '', '  SELECT 1', '```', '~~~~', 'a`b'), { maxLength: 4 }),
      closed: fc.boolean(),
    });
    const prose = fc.constantFrom('', 'Here:', 'The answer is below.\n', 'Done.');
    const text = fc.array(fc.tuple(prose, block), { maxLength: 4 }).map((parts) =>
      parts
        .map(([p, b]) => {
          const open = `${b.indent}${b.fence}${b.language}\n${b.body.join('\n')}`;
          return `${p}\n${b.closed ? `${open}\n${b.indent}${b.fence}` : open}`;
        })
        .join('\n'),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(codeBlocks(t)).toEqual(backtrackingCodeBlocks(t));
      }),
      { numRuns: 2_000, seed: 22 },
    );
  });
});
