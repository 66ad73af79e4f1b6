/**
 * Prediction files for `witness eval cypherbench`: CypherBench's own result.json (a list of items
 * with `qid` and `pred_cypher`), a JSON object mapping qid to query, a JSON list of queries in the
 * question file's order, or plain text with one query per line in that order. A trailing
 * `<end_of_turn>` is removed, as CypherBench's evaluate.py does. Nothing is dropped silently: a
 * qid predicted twice or a prediction that is not a string makes its question score 0 with the
 * reason, and predictions for qids the question file does not have are listed.
 */
import { readFileSync } from 'node:fs';
import { closesNesting, opensNesting, scanJson } from '../../core/json-scan.ts';

export interface PredictionIssue {
  item: string;
  message: string;
}

export interface Predictions {
  /** The predicted query per question. */
  queries: Map<string, string>;
  /** Questions whose prediction cannot be used (predicted twice, not a string), with the reason: they score 0. */
  invalid: Map<string, string>;
  /** Entries that belong to no question: unknown qids, items without a qid. */
  issues: PredictionIssue[];
}

const clean = (query: string) => query.replace(/<end_of_turn>\s*$/, '').trim();
const typeName = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** The keys of a JSON object text's top level, in order, repeats included (JSON.parse keeps only the last). */
export function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  scanJson(text, 0, (code, start, end) => {
    if (opensNesting(code)) depth++;
    else if (closesNesting(code)) depth--;
    else if (depth === 1) {
      // a string directly in the object: a key when a colon follows
      let j = end + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j++;
      if (text[j] === ':') keys.push(JSON.parse(text.slice(start, end + 1)) as string);
    }
    return false;
  });
  return keys;
}

/**
 * Reads predictions for the questions `qids`. Positional predictions (a list, or one per line) go to
 * the questions in order, or, when `positions` is given (the qid of each item of the question file,
 * null for an unusable one) and the count matches it, to the file's items: those of unusable items are
 * dropped, as their questions score 0 anyway. Throws an Error naming the file when it cannot be read or aligned at all.
 */
export function readPredictions(
  file: string,
  qids: readonly string[],
  positions: readonly (string | null)[] = qids,
): Predictions {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read predictions ${file}: ${(error as Error).message}`);
  }
  const known = new Set(qids);
  const out: Predictions = { queries: new Map(), invalid: new Map(), issues: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const entries: { qid: string; value: unknown; where: string }[] = [];
  const isItem = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (Array.isArray(json) && json.length > 0 && json.every(isItem)) {
    for (const [i, item] of json.entries()) {
      if (typeof item.qid !== 'string' || !item.qid)
        out.issues.push({ item: `${file} item ${i}`, message: 'has no qid: ignored' });
      else entries.push({ qid: item.qid, value: item.pred_cypher, where: `item ${i}` });
    }
  } else if (isItem(json)) {
    const keys = topLevelKeys(text);
    const map = json;
    // Every occurrence of a repeated key is an entry, so the repeat is seen (JSON.parse kept the last value).
    keys.forEach((qid, i) => entries.push({ qid, value: map[qid], where: `key ${i + 1}` }));
  } else {
    const list = Array.isArray(json)
      ? json
      : text.split(/\r?\n/).filter((line, i, all) => !(i === all.length - 1 && line === ''));
    if (list.length === qids.length)
      list.forEach((value, i) => entries.push({ qid: qids[i] as string, value, where: `prediction ${i + 1}` }));
    else if (list.length === positions.length) {
      list.forEach((value, i) => {
        const qid = positions[i];
        if (qid) entries.push({ qid, value, where: `prediction ${i + 1}` });
      });
    } else {
      const items = positions.length === qids.length ? '' : ` (in ${positions.length} items)`;
      throw new Error(
        `${file} has ${list.length} predictions but the question file has ${qids.length} questions${items}; give one per question, in order (or use qids)`,
      );
    }
  }

  const byQid = new Map<string, typeof entries>();
  for (const entry of entries) byQid.set(entry.qid, [...(byQid.get(entry.qid) ?? []), entry]);
  for (const [qid, list] of byQid) {
    const first = list[0] as (typeof entries)[number];
    if (!known.has(qid))
      out.issues.push({
        item: `${file} ${first.where}`,
        message: `a prediction for ${JSON.stringify(qid)}, which is not a question of the question file: ignored`,
      });
    else if (list.length > 1)
      out.invalid.set(
        qid,
        `${file} predicts ${qid} ${list.length} times (${list.map((e) => e.where).join(', ')}); one prediction per question`,
      );
    else if (typeof first.value === 'string') out.queries.set(qid, clean(first.value));
    else if (first.value !== null && first.value !== undefined)
      out.invalid.set(
        qid,
        `${file} ${first.where}: the prediction for ${qid} is ${typeName(first.value)}, not a string`,
      );
  }
  return out;
}
