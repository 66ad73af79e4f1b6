/** `witness eval cypherbench`: CypherBench execution accuracy of a predictions file on a real Neo4j 5.20. */
import { loadConfig } from '../core/config.ts';
import type { CypherBenchEvaluation } from '../oracles/cypher/evaluate.ts';
import { existingPath, positiveInteger, positiveNumber, progressLine } from './options.ts';
import { sayResult, warn } from './output.ts';
import type { Registrar } from './registrar.ts';

const percent = (x: number) => `${(100 * x).toFixed(2)}%`;
const NAMED = 20;

/** Up to NAMED qids, then how many more. */
function qidList(qids: string[]): string {
  const shown = qids.slice(0, NAMED).join(', ');
  return qids.length > NAMED ? `${shown} and ${qids.length - NAMED} more (all in --json)` : shown;
}

/** The text report: accuracy, executable rate, statuses, and accuracy by graph and category. */
export function formatCypherBench(e: CypherBenchEvaluation): string {
  const s = e.byStatus;
  const groups = (title: string, scores: CypherBenchEvaluation['byGraph']) =>
    Object.keys(scores).length
      ? [
          `  by ${title}: ${Object.entries(scores)
            .map(([k, v]) => `${k} ${percent(v.accuracy)} (${v.correct}/${v.total})`)
            .join(', ')}`,
        ]
      : [];
  return [
    `execution accuracy ${percent(e.accuracy)} (${e.correct}/${e.total}), executable ${percent(e.executableRate)} (${e.executable}/${e.total})`,
    `  exact string ${s.exact}, correct ${s.correct}, wrong ${s.wrong}, syntax error ${s.syntax}, runtime error ${s.runtime}, timeout ${s.timeout}, unsafe ${s.unsafe}, too large ${s['too-large']}, too complex ${s['too-complex']}, no prediction ${s['no-prediction']}, invalid prediction ${s['invalid-prediction']}, invalid gold ${s['invalid-gold']}${s['invalid-question'] ? `, invalid question ${s['invalid-question']}` : ''}${s['harness-error'] ? `, harness error ${s['harness-error']}` : ''}`,
    ...groups('graph', e.byGraph),
    ...groups('category', e.byCategory),
    ...e.items
      .filter((i) => i.status === 'invalid-gold' || i.status === 'invalid-prediction' || i.status === 'harness-error')
      .map((i) => `  warning: ${i.message}`),
    ...(s['no-prediction']
      ? [
          `  warning: no prediction for ${s['no-prediction']} question${s['no-prediction'] === 1 ? '' : 's'} (scored 0): ${qidList(e.items.filter((i) => i.status === 'no-prediction').map((i) => i.qid ?? `item ${i.index}`))}`,
        ]
      : []),
    ...e.predictionIssues.map((i) => `  warning: ${i.item}: ${i.message}`),
    ...e.issues.map((i) => `  warning: ${i.item}: ${i.message} (scored 0)`),
    `  server: ${e.server}`,
  ].join('\n');
}

/** Registers `witness eval cypherbench`. */
export const registerEvalCypherbench: Registrar = ({ evaluate }) => {
  evaluate
    .command('cypherbench')
    .description(
      'CypherBench execution accuracy of predicted Cypher queries, run on Neo4j 5.20 (NEO4J_URI, Docker or the Java launcher; or --uri)',
    )
    .requiredOption(
      '--data <file>',
      'CypherBench question file (JSON list with qid, graph, gold_cypher, nl_question, answer_json)',
      existingPath,
    )
    .requiredOption(
      '--predictions <file>',
      "CypherBench's result.json (items with pred_cypher), a JSON map qid → query, or one query per line",
      existingPath,
    )
    .option('--uri <uri>', 'a Neo4j that already holds the graph; it is used as it is and never modified')
    .option(
      '--graph <file...>',
      'SimpleKG graph file(s) (default: <graph>_simplekg.json next to the data file, or in graphs/ or graphs/simplekg/)',
    )
    .option('--timeout <seconds>', 'server-side timeout per predicted query', positiveNumber, 120)
    .option('--max-rows <n>', 'results with more rows are too-large (default 100000)', positiveInteger)
    .option(
      '--max-result-bytes <n>',
      'results bigger than this are too-large, counting 8 bytes per value plus string bytes (default 16777216)',
      positiveInteger,
    )
    .option(
      '--max-query-bytes <n>',
      'predicted queries longer than this (UTF-8) are too-complex and not run (default 16384)',
      positiveInteger,
    )
    .option('--no-check-answers', "do not check gold results against the items' answer_json")
    .option('--json', 'print the scores and per-item results as JSON')
    .addHelpText(
      'after',
      '\nQuestions without a usable prediction (missing, predicted twice, not a string) and unusable items of the question file score 0 and are named; predictions for unknown qids are listed and ignored.' +
        '\nExit status: 0 when scored (whatever the accuracy), 1 when Neo4j or the files are unusable or an item could not be scored (harness error), 2 on usage errors.',
    )
    .action(
      async (o: {
        data: string;
        predictions: string;
        uri?: string;
        graph?: string[];
        timeout: number;
        maxRows?: number;
        maxResultBytes?: number;
        maxQueryBytes?: number;
        checkAnswers: boolean;
        json?: boolean;
      }) => {
        const { evaluateCypherBench } = await import('../oracles/cypher/evaluate.ts');
        const progress = progressLine('questions');
        const result = await evaluateCypherBench({
          data: o.data,
          predictions: o.predictions,
          ...(o.uri ? { uri: o.uri } : {}),
          ...(o.graph ? { graphFiles: o.graph } : {}),
          timeoutMs: o.timeout * 1000,
          ...(o.maxRows ? { maxRows: o.maxRows } : {}),
          ...(o.maxResultBytes ? { maxResultBytes: o.maxResultBytes } : {}),
          ...(o.maxQueryBytes ? { maxQueryBytes: o.maxQueryBytes } : {}),
          checkAnswers: o.checkAnswers,
          neo4j: loadConfig(process.cwd()).config.neo4j,
          log: warn,
          ...(progress ? { onProgress: progress } : {}),
        });
        sayResult(o.json, result, () => formatCypherBench(result));
        if (result.byStatus['harness-error'] > 0) process.exitCode = 1;
      },
    );
};
