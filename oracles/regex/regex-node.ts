/**
 * The dialect-neutral regex AST (types only; printers are in ast.ts). A node denotes a language of
 * whole strings over UTF-16 code units; `repeat` with min > max denotes the empty language.
 */
import type { CharSet } from 'refa';

export type Dialect = 'ecmascript' | 'brics';

export type RegexNode =
  | { type: 'chars'; set: CharSet; text: string }
  | { type: 'seq'; items: RegexNode[] }
  | { type: 'alt'; options: RegexNode[] }
  | { type: 'repeat'; node: RegexNode; min: number; max: number }
  | { type: 'and'; left: RegexNode; right: RegexNode }
  | { type: 'not'; node: RegexNode }
  | { type: 'none' }
  | { type: 'anything' };
