import { describe, expect, it } from 'vitest';
import { extractRegex } from './extract.ts';

describe('extractRegex', () => {
  it('takes the first non-empty line of a regex code block', () => {
    expect(extractRegex('Sure:\n```regex\n\n.*dog.*\n```\nThis matches dog.')).toEqual({
      source: '.*dog.*',
      extraction: 'code-block',
    });
  });

  it('unwraps /…/flags literals and Python raw strings', () => {
    expect(extractRegex('```js\n/dog/i\n```')).toEqual({ source: '/dog/i', extraction: 'literal' });
    expect(extractRegex('```python\nr"[0-9]+"\n```')).toEqual({ source: '[0-9]+', extraction: 'code-block' });
  });

  it('accepts a bare one-line reply or a lone inline code span', () => {
    expect(extractRegex('  [A-Z].*  \n')).toEqual({ source: '[A-Z].*', extraction: 'whole-reply' });
    expect(extractRegex('`[A-Z].*`')).toEqual({ source: '[A-Z].*', extraction: 'whole-reply' });
    expect(extractRegex('I think the answer is\n`dog|truck`\nbecause…')).toEqual({
      source: 'dog|truck',
      extraction: 'whole-reply',
    });
  });

  it('finds nothing in prose without code', () => {
    expect(extractRegex('I cannot help with that.\nSorry.')).toBeNull();
    expect(extractRegex('```regex\n\n```')).toBeNull();
    expect(extractRegex('')).toBeNull();
  });
});
