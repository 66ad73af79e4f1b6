/** Finding the program in a model reply: fenced code blocks first, preferring the expected language. */

export interface CodeBlock {
  language: string;
  body: string;
}

const FENCE = /(^|\n)[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?=\n|$)/g;

/** All fenced blocks in order of appearance. An unterminated final fence still counts. */
export function codeBlocks(reply: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let lastEnd = 0;
  for (const match of reply.matchAll(FENCE)) {
    blocks.push({ language: (match[3] ?? '').toLowerCase(), body: match[4] ?? '' });
    lastEnd = (match.index ?? 0) + match[0].length;
  }
  const rest = reply.slice(lastEnd);
  const open = /(^|\n)[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*)$/.exec(rest);
  if (open && !open[4]?.includes(open[2] ?? '```')) {
    blocks.push({ language: (open[3] ?? '').toLowerCase(), body: (open[4] ?? '').replace(/\s+$/, '') });
  }
  return blocks;
}

/**
 * The block to use: a block whose language is one of `languages`, else an unlabelled block, else
 * any block. `which` picks the last (default: models often show a draft first and the answer last)
 * or the first (DSCodeBench's rule) among those.
 */
export function pickCodeBlock(
  reply: string,
  languages: readonly string[],
  which: 'first' | 'last' = 'last',
): CodeBlock | null {
  const blocks = codeBlocks(reply);
  const wanted = new Set(languages.map((l) => l.toLowerCase()));
  const choose = (list: CodeBlock[]) => (which === 'first' ? list[0] : list.at(-1));
  return (
    choose(blocks.filter((b) => wanted.has(b.language))) ??
    choose(blocks.filter((b) => b.language === '')) ??
    choose(blocks) ??
    null
  );
}
