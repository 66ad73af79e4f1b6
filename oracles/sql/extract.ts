/**
 * Finding the query in a model reply: a fenced block (sql/sqlite or unlabelled), else a reply that
 * is itself a query (starting with SELECT or WITH), else the last inline code span that is one.
 */
import { pickCodeBlock } from '../../core/extract.ts';
import type { Candidate } from '../../core/types.ts';

const QUERY_START = /^\s*(select|with|values)\b/i;

export function extractSql(reply: string): Candidate | null {
  const block = pickCodeBlock(reply, ['sql', 'sqlite']);
  if (block) {
    const body = block.body.trim();
    return body === '' ? null : { source: body, extraction: 'code-block' };
  }
  if (QUERY_START.test(reply)) return { source: reply.trim(), extraction: 'whole-reply' };
  const spans = [...reply.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string).filter((s) => QUERY_START.test(s));
  const last = spans.at(-1);
  return last ? { source: last.trim(), extraction: 'whole-reply' } : null;
}
