/**
 * Finding the Cypher query in a model reply: a ```cypher (or cql / neo4j / unlabelled) block,
 * else the whole reply when it reads as a query — CypherBench's baseline asks for one line
 * without fences and strips ``` markers and a trailing `<end_of_turn>`. A trailing `;` is dropped.
 */
import { pickCodeBlock } from '../../core/extract.ts';
import type { Candidate } from '../../core/types.ts';

const STARTS_LIKE_CYPHER =
  /^(MATCH|OPTIONAL\s+MATCH|WITH|UNWIND|CALL|RETURN|CREATE|MERGE|USE|LOAD\s+CSV|EXPLAIN|PROFILE|CYPHER|SHOW|DETACH|DELETE|FOREACH)\b/i;

function tidy(text: string): string {
  return text
    .replace(/<end_of_turn>\s*$/, '')
    .trim()
    .replace(/^cypher:\s*/i, '')
    .replace(/;\s*$/, '')
    .trim();
}

/** The candidate query in a reply, or null when there is none. */
export function extractCypher(reply: string): Candidate | null {
  const block = pickCodeBlock(reply, ['cypher', 'cql', 'neo4j', 'graphql', 'sql']);
  if (block) {
    const source = tidy(block.body);
    return source ? { source, extraction: 'code-block' } : null;
  }
  const whole = tidy(reply.replace(/```/g, ''));
  return STARTS_LIKE_CYPHER.test(whole) ? { source: whole, extraction: 'whole-reply' } : null;
}
