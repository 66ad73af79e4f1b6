/**
 * The regex-based fence extraction that core/extract.ts's scanner replaced, kept only as the
 * reference its property test and perf/extract.ts compare against. Its lazy body and the
 * backtracking over the fence length make it quadratic or worse on replies full of unclosed
 * fences: never apply it to a reply.
 */
import type { CodeBlock } from '../core/extract.ts';

const FENCE = /(^|\n)[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?=\n|$)/g;

/** All fenced blocks in order of appearance, as the old regex found them. */
export function backtrackingCodeBlocks(reply: string): CodeBlock[] {
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
