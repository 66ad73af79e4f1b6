/**
 * Reference membership by recursion over the AST: no automata, no V8, no derivatives — only the
 * definitions of each construct (a set holds one character, concatenation splits the input,
 * repetition counts copies, `&` needs both sides, `~` negates). Polynomial in the input length,
 * so only for short inputs: tests and measurements use it to check the automata's verdicts.
 */
import type { RegexNode } from '../../oracles/regex/ast.ts';

/** Whether the whole input is in the node's language (full match, UTF-16 code units). */
export function bruteForceMatches(node: RegexNode, input: string): boolean {
  const memo = new Map<RegexNode, Map<number, boolean>>();
  const n = input.length;

  /** Does `node` match input[i, j)? */
  const matches = (node: RegexNode, i: number, j: number): boolean => {
    let table = memo.get(node);
    if (!table) memo.set(node, (table = new Map()));
    const key = i * (n + 1) + j;
    const known = table.get(key);
    if (known !== undefined) return known;
    const result = evaluate(node, i, j);
    table.set(key, result);
    return result;
  };

  /** The ends k such that `node` matches input[i, k), for every i in `starts`. */
  const ends = (node: RegexNode, starts: Set<number>): Set<number> => {
    const out = new Set<number>();
    for (const i of starts) for (let k = i; k <= n; k++) if (matches(node, i, k)) out.add(k);
    return out;
  };

  const evaluate = (node: RegexNode, i: number, j: number): boolean => {
    switch (node.type) {
      case 'chars':
        return j === i + 1 && node.set.has(input.charCodeAt(i));
      case 'none':
        return false;
      case 'anything':
        return true;
      case 'alt':
        return node.options.some((option) => matches(option, i, j));
      case 'and':
        return matches(node.left, i, j) && matches(node.right, i, j);
      case 'not':
        return !matches(node.node, i, j);
      case 'seq': {
        let positions = new Set([i]);
        for (const item of node.items) {
          positions = ends(item, positions);
          if (positions.size === 0) return false;
        }
        return positions.has(j);
      }
      case 'repeat': {
        if (node.min > node.max) return false;
        // Levels of copies: positions reached after c copies. A nullable item makes the levels grow
        // to a fixed point; a non-nullable one empties them after at most n + 1 copies.
        let level = new Set([i]);
        if (node.min === 0 && i === j) return true;
        for (let copies = 1; copies <= node.max; copies++) {
          const next = ends(node.node, level);
          if (next.size === 0) return false;
          const fixed = next.size === level.size && [...next].every((k) => level.has(k));
          level = next;
          if (copies >= node.min && level.has(j)) return true;
          if (fixed) return node.max >= node.min && level.has(j);
        }
        return false;
      }
    }
  };

  return matches(node, 0, n);
}
