import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    // kitten → sitting: k→s, e→i, +g = 3
    expect(editDistance([...'kitten'], [...'sitting'])).toBe(3);
    expect(editDistance([], ['a', 'b'])).toBe(2);
    expect(editDistance(['a', 'b'], [])).toBe(2);
    expect(editDistance([], [])).toBe(0);
  });

  it('works on whole tokens, not characters', () => {
    expect(editDistance(['\\d', '{2}'], ['\\d', '{3}'])).toBe(1);
    expect(editDistance(['[a-z]', '+'], ['[a-z]', '+'])).toBe(0);
  });

  it('is symmetric', () => {
    const a = ['(', 'a', '|', 'b', ')', '*'];
    const b = ['a', '*', 'b'];
    expect(editDistance(a, b)).toBe(editDistance(b, a));
    expect(editDistance(a, b)).toBe(4); // del '(', keep a, '|'→'*', keep b, del ')', del '*'
  });
});
