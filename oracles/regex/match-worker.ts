/**
 * The body of the V8 matching worker, as a string for `new Worker(WORKER_SOURCE, { eval: true })`.
 * A string loads the same way under vitest, tsx and plain node (a `.ts` worker file would not),
 * and it needs nothing but Node built-ins.
 *
 * The worker enables V8's linear-engine fallback on excessive backtracking (a runtime flag: it is
 * refused in NODE_OPTIONS), then answers one message per batch:
 *   in:  { id, source, flags, inputs: string[] }
 *   out: { id, results: boolean[] } | { id, error: string }
 * Full-match semantics: `^(?:source)$`; when the flags contain `m` (where `^`/`$` would be line
 * anchors) the wrapper is `(?<![^])(?:source)(?![^])` instead, which anchors at the input's edges.
 * `flags` are the effective ones from compile.ts (a subset of `ims`, never `g`/`y`, so `test` is
 * stateless).
 */
export const WORKER_SOURCE = `
'use strict';
const v8 = require('node:v8');
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (job) => {
  try {
    const pattern = job.flags.includes('m')
      ? '(?<![^])(?:' + job.source + ')(?![^])'
      : '^(?:' + job.source + ')$';
    const regex = new RegExp(pattern, job.flags);
    const results = job.inputs.map((input) => regex.test(input));
    parentPort.postMessage({ id: job.id, results });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
`;

export interface WorkerJob {
  id: number;
  source: string;
  flags: string;
  inputs: string[];
}

export type WorkerReply = { id: number; results: boolean[] } | { id: number; error: string };
