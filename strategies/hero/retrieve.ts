/**
 * Retrieval of execution-verified training examples for HERO-T: TF-IDF cosine similarity over the
 * words of task statements (lower-cased, stop words dropped). Pure and deterministic (ties by id).
 */

export interface VerifiedExample {
  taskId: string;
  statement: string;
  /** A program that passed the oracle on its training task (offline, where labels are allowed). */
  program: string;
}

const STOP = new Set(
  'a an and are as at be by for from in is it of on or that the their there this to was were which with what who how many much lines line'.split(
    ' ',
  ),
);

function terms(text: string): string[] {
  return [...text.toLowerCase().matchAll(/[a-z0-9_]+/g)].map((m) => m[0]).filter((w) => !STOP.has(w));
}

export class ExampleIndex {
  private readonly vectors: Map<string, number>[];
  private readonly idf = new Map<string, number>();

  constructor(readonly examples: readonly VerifiedExample[]) {
    const docs = examples.map((e) => terms(e.statement));
    const df = new Map<string, number>();
    for (const doc of docs) for (const term of new Set(doc)) df.set(term, (df.get(term) ?? 0) + 1);
    for (const [term, count] of df) this.idf.set(term, Math.log((1 + docs.length) / (1 + count)) + 1);
    this.vectors = docs.map((doc) => this.vector(doc));
  }

  private vector(doc: string[]): Map<string, number> {
    const tf = new Map<string, number>();
    for (const term of doc) tf.set(term, (tf.get(term) ?? 0) + 1);
    const v = new Map<string, number>();
    let norm = 0;
    for (const [term, count] of tf) {
      const w = count * (this.idf.get(term) ?? 0);
      if (w > 0) v.set(term, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [term, w] of v) v.set(term, w / norm);
    return v;
  }

  /** The `k` most similar examples to a statement, most similar first, excluding `excludeTaskId`. */
  search(statement: string, k: number, excludeTaskId?: string): { example: VerifiedExample; similarity: number }[] {
    const query = this.vector(terms(statement));
    return this.examples
      .map((example, i) => {
        let dot = 0;
        for (const [term, w] of query) dot += w * (this.vectors[i]?.get(term) ?? 0);
        return { example, similarity: dot };
      })
      .filter((r) => r.example.taskId !== excludeTaskId)
      .sort((a, b) => b.similarity - a.similarity || (a.example.taskId < b.example.taskId ? -1 : 1))
      .slice(0, k);
  }
}
