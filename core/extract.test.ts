import { describe, expect, it } from 'vitest';
import { codeBlocks, pickCodeBlock } from './extract.ts';
import { HOSTILE_SHAPES } from './hostile/shapes.ts';

describe('code block extraction', () => {
  it('finds fenced blocks with their languages', () => {
    const reply = 'Here:\n```sql\nSELECT 1\n```\nand\n~~~python\nprint(1)\n~~~\n';
    expect(codeBlocks(reply)).toEqual([
      { language: 'sql', body: 'SELECT 1' },
      { language: 'python', body: 'print(1)' },
    ]);
  });

  it('prefers the wanted language, then unlabelled blocks, then any block', () => {
    const reply = '```\nplain\n```\n```python\nx = 1\n```\n```regex\na+\n```';
    expect(pickCodeBlock(reply, ['regex'])?.body).toBe('a+');
    expect(pickCodeBlock(reply, ['sql'])?.body).toBe('plain');
    expect(pickCodeBlock('```python\nx\n```', ['sql'])?.body).toBe('x');
  });

  it('takes the last matching block by default and the first on request', () => {
    const reply = '```sql\nfirst\n```\ntext\n```sql\nsecond\n```';
    expect(pickCodeBlock(reply, ['sql'])?.body).toBe('second');
    expect(pickCodeBlock(reply, ['sql'], 'first')?.body).toBe('first');
  });

  it('accepts an unterminated final fence (a truncated reply)', () => {
    expect(codeBlocks('```regex\n[a-z]+\n')).toEqual([{ language: 'regex', body: '[a-z]+' }]);
  });

  it('returns null when there is no block', () => {
    expect(pickCodeBlock('no code here', ['regex'])).toBeNull();
  });
});

describe('hostile replies', () => {
  // The regex this scanner replaced took 27.5 s on 150 KB of unclosed fences (about 17 minutes
  // at a megabyte); a scan of a megabyte takes milliseconds. The bound leaves room for a loaded machine.
  for (const hostile of HOSTILE_SHAPES) {
    it(`scans a megabyte of ${hostile.name} in linear time`, () => {
      const reply = hostile.build(1 << 20);
      const started = performance.now();
      codeBlocks(reply);
      pickCodeBlock(reply, ['python'], 'first');
      expect(performance.now() - started).toBeLessThan(3_000);
    });
  }
});
