/**
 * Text built to make backtracking patterns take quadratic or exponential time: each entry names
 * the shape (the repetition that defeated a pattern applied to model replies, dataset text or
 * candidate output) and builds it at a given size. Tests run every scanner over each at a
 * megabyte and bound the time; perf/extract.ts times them.
 */

export interface HostileShape {
  name: string;
  /** About `size` characters of the shape. */
  build(size: number): string;
}

const repeat = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));

export const HOSTILE_SHAPES: readonly HostileShape[] = [
  { name: 'unclosed fence lines', build: (n) => repeat('```x\n', n) },
  { name: 'bare fence lines (they pair up)', build: (n) => repeat('```\n', n) },
  { name: 'unclosed labelled fences with a body line', build: (n) => repeat('```python\nx = 1\n', n) },
  { name: 'one long run of backticks', build: (n) => repeat('`', n) + '\n' },
  { name: 'tilde fences of growing length', build: (n) => repeat('~~~~~~~~\n~~~\n', n) },
  { name: 'a fence then whitespace without an end', build: (n) => '```\n' + repeat(' ', n) + 'x' },
  { name: 'blank lines before a non-definition', build: (n) => repeat('\n', n) + 'x' },
  { name: 'spaces before a non-comment', build: (n) => 'return ' + repeat(' ', n) + 'x' },
  { name: 'opening quotes without a closing one', build: (n) => repeat('‘', n) },
  { name: 'class brackets without a closing one', build: (n) => repeat('[', n) },
  { name: 'spaces not before punctuation', build: (n) => repeat(' ', n) + 'x' },
  { name: 'semicolons before text', build: (n) => repeat(';', n) + 'x' },
  { name: 'at-signs before a line break', build: (n) => repeat('@', n) + '\nx' },
  { name: 'placeholder openings without a close', build: (n) => repeat('{', n) },
  { name: 'task markers without a blank line', build: (n) => repeat('for: ', n) },
  { name: 'inline code spans without a close', build: (n) => repeat('`a\n', n) },
];
