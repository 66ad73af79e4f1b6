/**
 * `witness data check --suite cypherbench`: a CypherBench folder in the official layout checked
 * without Neo4j — the question files of both splits (every item's fields, by qid or position), the
 * graphs they reference against the graph files present, each graph file's SimpleKG shape, and each
 * gold against what the oracle's guard refuses without a server (guard-policy.ts).
 * Graph files up to GRAPH_PARSE_LIMIT bytes are parsed and validated whole; bigger ones (the full
 * release is 5.23 GB, biology alone several GB) only by their head, so memory stays bounded.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { dataReport, type DataFinding, type DataReport } from '../../core/data-report.ts';
import { firstJsonObject } from '../../core/json-scan.ts';
import type { Task, TaskIssue } from '../../core/types.ts';
import { unplannedRefusal } from './guard-policy.ts';
import { CYPHERBENCH_SPLITS, findGraphFile, resolveCypherBenchLayout } from './layout.ts';
import { loadCypherBenchFile } from './loader.ts';
import { parseSimpleKG, readSimpleKG, SimpleKGError } from './simplekg.ts';

/** Graph files bigger than this are checked by their head only. */
export const GRAPH_PARSE_LIMIT = 64 * 1024 * 1024;
/** How much of a big graph file is read for the head check. */
const HEAD_BYTES = 1024 * 1024;
/** Findings per question file beyond which the rest are counted, not listed. */
const MAX_ITEM_FINDINGS = 50;

const SOURCE = {
  name: 'CypherBench (Hugging Face dataset megagonlabs/cypherbench)',
  url: 'https://huggingface.co/datasets/megagonlabs/cypherbench',
};

/** The top-level `"schema": {…}` object from the head of a SimpleKG file, or null when it is not there whole. */
export function schemaFromHead(head: string): unknown {
  const start = /^\s*\{\s*"schema"\s*:\s*\{/.exec(head);
  if (!start) return null;
  const schema = firstJsonObject(head, start[0].length - 1);
  return schema === null ? null : (JSON.parse(schema) as unknown);
}

function readHead(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Checks one graph file; findings name it. */
function checkGraphFile(graph: string, file: string, rel: string): DataFinding[] {
  const size = statSync(file).size;
  const problems = (error: unknown) =>
    error instanceof SimpleKGError
      ? error.issues.slice(0, 10).map((message): DataFinding => ({ level: 'error', path: rel, message }))
      : [{ level: 'error' as const, path: rel, message: (error as Error).message }];
  if (size <= GRAPH_PARSE_LIMIT) {
    try {
      const kg = readSimpleKG(file);
      const findings: DataFinding[] = [
        {
          level: 'info',
          path: rel,
          message: `graph ${graph}: ${kg.entities.length} entities, ${kg.relations.length} relations, valid SimpleKG`,
        },
      ];
      if (kg.schema.name !== graph)
        findings.push({
          level: 'warning',
          path: rel,
          message: `schema.name is ${kg.schema.name}, the questions say ${graph}`,
        });
      return findings;
    } catch (error) {
      return problems(error);
    }
  }
  const mb = (size / 1024 / 1024).toFixed(0);
  let schema: unknown;
  try {
    schema = schemaFromHead(readHead(file));
  } catch (error) {
    return [
      {
        level: 'error',
        path: rel,
        message: `the schema at the head of the file is not JSON: ${(error as Error).message}`,
      },
    ];
  }
  if (schema === null)
    return [
      {
        level: 'error',
        path: rel,
        message: `does not start with a SimpleKG object whose first key is "schema" (first ${HEAD_BYTES / 1024} KiB of ${mb} MB read)`,
      },
    ];
  try {
    const kg = parseSimpleKG({ schema, entities: [], relations: [] }, rel);
    return [
      {
        level: 'info',
        path: rel,
        message: `graph ${graph}: ${mb} MB, schema valid (${kg.schema.entities.length} labels, ${kg.schema.relations.length} relation types); only the head was checked (files over ${GRAPH_PARSE_LIMIT / 1024 / 1024} MB are not parsed here)`,
      },
    ];
  } catch (error) {
    return problems(error);
  }
}

/** The questions whose gold the oracle's guard refuses without planning it (guard-policy.ts). */
function refusedGolds(tasks: readonly Task[]): TaskIssue[] {
  return tasks.flatMap((task) => {
    const refused = unplannedRefusal(task.gold);
    return refused
      ? [
          {
            item: `question ${task.id}`,
            message: `the run refuses the gold query (${refused.kind}): ${refused.message}`,
          },
        ]
      : [];
  });
}

/** Checks a CypherBench data folder (see the module comment). */
export function checkCypherBenchData(data: string): DataReport {
  const findings: DataFinding[] = [];
  const counts: Record<string, number> = { questions: 0, graphs: 0, 'graphs.present': 0 };
  const report = () => dataReport({ suite: 'cypherbench', data, counts, findings, source: SOURCE });
  if (!existsSync(data) || !statSync(data).isDirectory()) {
    findings.push({
      level: 'error',
      path: data,
      message: 'is not a folder (expected test.json, train.json and graphs/)',
    });
    return report();
  }
  const uses = new Map<string, number>();
  for (const split of CYPHERBENCH_SPLITS) {
    let file: string;
    try {
      file = resolveCypherBenchLayout(data, split).questionsFile;
    } catch (error) {
      findings.push({
        level: split === 'test' ? 'error' : 'warning',
        path: `${split}.json`,
        message: (error as Error).message,
      });
      continue;
    }
    const loaded = loadCypherBenchFile(file);
    const rel = relative(data, file);
    counts[`questions.${split}`] = loaded.tasks.length;
    counts.questions = (counts.questions ?? 0) + loaded.tasks.length;
    const issues = [...loaded.issues, ...refusedGolds(loaded.tasks)];
    for (const issue of issues.slice(0, MAX_ITEM_FINDINGS))
      findings.push({ level: 'error', path: rel, item: issue.item, message: issue.message });
    if (issues.length > MAX_ITEM_FINDINGS)
      findings.push({
        level: 'error',
        path: rel,
        message: `… and ${issues.length - MAX_ITEM_FINDINGS} more unusable items`,
      });
    for (const task of loaded.tasks) {
      const graph = String(task.context?.graph ?? '');
      uses.set(graph, (uses.get(graph) ?? 0) + 1);
    }
  }
  counts.graphs = uses.size;
  for (const [graph, n] of uses) {
    const found = findGraphFile(data, graph);
    if ('problem' in found) {
      findings.push({
        level: 'error',
        path: 'graphs/',
        item: `graph ${graph}`,
        message: `${found.problem}; ${n} questions use it`,
      });
      continue;
    }
    counts['graphs.present'] = (counts['graphs.present'] ?? 0) + 1;
    findings.push(...checkGraphFile(graph, found.file, relative(data, found.file)));
  }
  findings.push(
    {
      level: 'info',
      message:
        "gold queries went through the guard's checks that need no server; writes, LOAD CSV and procedure calls are found by Neo4j's EXPLAIN, in the run",
    },
    {
      level: 'info',
      message: 'no checksums of the CypherBench release are known offline, so the files were not compared with it',
    },
  );
  return report();
}
