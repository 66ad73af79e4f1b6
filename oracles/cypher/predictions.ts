/**
 * Prediction files for `witness eval cypherbench`: CypherBench's own result.json (a list of items
 * with `qid` and `pred_cypher`), a JSON object mapping qid to query, a JSON list of queries in the
 * question file's order, or plain text with one query per line in that order. A trailing
 * `<end_of_turn>` is removed, as CypherBench's evaluate.py does.
 */
import { readFileSync } from 'node:fs';

const clean = (query: string) => query.replace(/<end_of_turn>\s*$/, '').trim();

/** The predicted query per qid. Throws an Error naming the file when it cannot be matched to the questions. */
export function readPredictions(file: string, qids: readonly string[]): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read predictions ${file}: ${(error as Error).message}`);
  }
  const out = new Map<string, string>();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (Array.isArray(json) && json.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x))) {
    for (const [i, item] of (json as Record<string, unknown>[]).entries()) {
      if (typeof item.qid !== 'string') throw new Error(`${file}: item ${i} has no qid`);
      if (typeof item.pred_cypher === 'string') out.set(item.qid, clean(item.pred_cypher));
    }
    return out;
  }
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    for (const [qid, query] of Object.entries(json as Record<string, unknown>)) {
      if (typeof query !== 'string') throw new Error(`${file}: the prediction for ${qid} is not a string`);
      out.set(qid, clean(query));
    }
    return out;
  }
  const list = Array.isArray(json) ? json : text.split(/\r?\n/).filter((line, i, all) => !(i === all.length - 1 && line === ''));
  if (list.length !== qids.length) {
    throw new Error(`${file} has ${list.length} predictions but the question file has ${qids.length} questions; give one per question, in order (or use qids)`);
  }
  list.forEach((query, i) => {
    if (typeof query !== 'string') throw new Error(`${file}: prediction ${i + 1} is not a string`);
    out.set(qids[i] as string, clean(query));
  });
  return out;
}
