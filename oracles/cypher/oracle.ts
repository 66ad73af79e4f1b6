/**
 * The CypherBench oracle: candidates run on a real Neo4j 5.20 behind an EXPLAIN read-only guard,
 * in read transactions with a server-side timeout, and are judged by CypherBench's execution
 * accuracy (compare.ts) against the gold result computed once per question. Witnesses are missing,
 * unexpected and misplaced rows; hardening adds graph variants; the Observer runs and describes
 * without judging.
 */
import { goldFailure, TaskInputError, type SimulatedOracle } from '../../core/oracle.ts';
import type { Candidate, Task, Verdict, Witness } from '../../core/types.ts';
import { compareResults, keyRows, orderMattersFor } from './compare.ts';
import { DEFAULT_MAX_RESULT_BYTES, DEFAULT_MAX_ROWS } from './execute.ts';
import { extractCypher } from './extract.ts';
import { DEFAULT_MAX_QUERY_BYTES } from './guard.ts';
import { cypherHardener, failingVariantWitness } from './hardener.ts';
import { graphProblem as databaseGraphProblem } from './load-graph.ts';
import { cypherObserver } from './observer.ts';
import { CYPHER_DEFAULTS, type CypherOracleOptions, type CypherPrepared, type CypherRuntime } from './prepared.ts';
import { cypherRenderer } from './render.ts';
import { CypherRunner } from './runner.ts';
import { schemaText } from './schema-text.ts';
import { cypherSimulator } from './simulator.ts';
import type { SimpleKG } from './simplekg.ts';
import { UncomparableValueError, type Cell, type ResultTable } from './values.ts';
import { countsDetail, errorVerdict, graphCases, judge, rowCases, rowWitnesses } from './verdict.ts';

export type { CypherOracleOptions, CypherPrepared } from './prepared.ts';

/** answer_json (a list of rows as lists or as objects) as a result table with the gold's columns. */
function answerTable(answerJson: string, columns: string[]): ResultTable {
  const parsed = JSON.parse(answerJson) as unknown;
  if (!Array.isArray(parsed)) throw new Error('answer_json is not a JSON list of rows');
  const rows = parsed.map(
    (row) =>
      (Array.isArray(row) ? row : typeof row === 'object' && row !== null ? Object.values(row) : [row]) as Cell[],
  );
  return { columns: rows[0] ? rows[0].map((_, i) => columns[i] ?? `column ${i + 1}`) : columns, rows };
}

/** The CypherBench oracle over a Neo4j that holds the given graphs' data. */
export function cypherOracle(options: CypherOracleOptions): SimulatedOracle<CypherPrepared> {
  const settings = {
    timeoutMs: options.timeoutMs ?? CYPHER_DEFAULTS.timeoutMs,
    goldTimeoutMs: options.goldTimeoutMs ?? CYPHER_DEFAULTS.goldTimeoutMs,
    variantsPerRound: options.variantsPerRound ?? CYPHER_DEFAULTS.variantsPerRound,
    checkAnswers: options.checkAnswers ?? CYPHER_DEFAULTS.checkAnswers,
    exactStringShortcut: options.exactStringShortcut ?? CYPHER_DEFAULTS.exactStringShortcut,
    boolEqualsInt: options.boolEqualsInt ?? CYPHER_DEFAULTS.boolEqualsInt,
    maxRows: options.maxRows ?? DEFAULT_MAX_ROWS,
    maxResultBytes: options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    maxQueryBytes: options.maxQueryBytes ?? DEFAULT_MAX_QUERY_BYTES,
  };
  const runner = new CypherRunner({
    uri: options.uri,
    timeoutMs: settings.timeoutMs,
    goldTimeoutMs: settings.goldTimeoutMs,
    maxRows: settings.maxRows,
    maxResultBytes: settings.maxResultBytes,
    maxQueryBytes: settings.maxQueryBytes,
    ...(options.database ? { database: options.database } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
  });
  const graphs = new Map<string, SimpleKG>(options.graphs.map((g) => [g.schema.name, g]));
  const schemas = new Map<string, string>();
  const loadedChecks = new Map<string, Promise<string | null>>();
  const comparison = { boolEqualsInt: settings.boolEqualsInt };
  const render = cypherRenderer({ timeoutMs: settings.timeoutMs });

  /** Null when the database holds this graph, else why not (checked once per graph). */
  const graphProblem = (kg: SimpleKG) => {
    let check = loadedChecks.get(kg.schema.name);
    if (!check) {
      check = databaseGraphProblem(runner.driver, kg, options.database).then((problem) =>
        problem === null ? null : `the database at ${options.uri}: ${problem}`,
      );
      loadedChecks.set(kg.schema.name, check);
    }
    return check;
  };

  async function prepare(task: Task): Promise<CypherPrepared> {
    const item = `question ${task.id}`;
    const graph = String(task.context?.graph ?? '');
    const kg = graphs.get(graph);
    const trusted = options.trustedGraphs?.includes(graph) ?? false;
    if (!kg && !trusted) {
      throw new TaskInputError(
        item,
        `graph ${JSON.stringify(graph)} is not one of the loaded graphs (${[...graphs.keys(), ...(options.trustedGraphs ?? [])].join(', ') || 'none'})`,
      );
    }
    // A database that does not hold the graph is the run's setup, not the question: a harness error.
    const problem = kg ? await graphProblem(kg) : null;
    if (problem) throw new Error(`${item}: ${problem}`);
    const guard = await runner.guard(task.gold, 'gold');
    if (!guard.ok)
      throw goldFailure(
        item,
        guard.error.kind,
        `the gold query cannot be used (${guard.error.kind}): ${guard.error.message}`,
      );
    const gold = await runner.run(task.gold, 'gold');
    if (!gold.ok)
      throw goldFailure(item, gold.error.kind, `the gold query fails (${gold.error.kind}): ${gold.error.message}`);
    const orderMatters = orderMattersFor(task.gold);
    try {
      keyRows(gold.table, comparison);
    } catch (error) {
      // Values Witness's comparison cannot take: its limit, a harness error.
      if (error instanceof UncomparableValueError)
        throw new Error(`${item}: the gold result cannot be compared: ${error.message}`);
      throw error;
    }
    const answer = task.meta?.answer_json;
    if (settings.checkAnswers && typeof answer === 'string') {
      let expected: ResultTable;
      try {
        expected = answerTable(answer, gold.table.columns);
      } catch (error) {
        throw new TaskInputError(item, `answer_json cannot be read: ${(error as Error).message}`);
      }
      if (!compareResults(expected, gold.table, { orderMatters, ...comparison }).equal) {
        throw new TaskInputError(
          item,
          `the gold query returns ${gold.table.rows.length} rows on the loaded graph that differ from answer_json (${expected.rows.length} rows): is this the graph the answers were computed on?`,
        );
      }
    }
    const rows = rowCases(gold.table.rows.length);
    const caseIds = [...rows.map((r) => r.id), 'no-extra-rows', ...(orderMatters ? ['row-order'] : [])];
    return { task, caseIds, graph, goldResult: gold.table, orderMatters, rows, variants: [] };
  }

  async function check(prepared: CypherPrepared, candidate: Candidate): Promise<Verdict> {
    const started = performance.now();
    const times: Record<string, number> = {};
    const timings = () => ({ totalMs: performance.now() - started, ...times });
    if (settings.exactStringShortcut && candidate.source === prepared.task.gold) {
      return {
        pass: true,
        cases: prepared.caseIds.map((id) => ({ id, pass: true })),
        witnesses: [],
        timings: timings(),
        detail: { exactMatch: true },
      };
    }
    const guard = await runner.guard(candidate.source);
    times.guardMs = guard.ms;
    if (!guard.ok) return errorVerdict(prepared.caseIds, guard.error, timings());
    const run = await runner.run(candidate.source, 'candidate');
    times.runMs = run.ms;
    if (!run.ok) return errorVerdict(prepared.caseIds, run.error, timings());
    const cmp = { orderMatters: prepared.orderMatters, ...comparison };
    const judgement = judge(prepared.goldResult, run.table, cmp);
    const detail = countsDetail(prepared.goldResult, run.table, judgement);
    if (judgement.error) return errorVerdict(prepared.caseIds, judgement.error, timings(), detail);
    const cases = graphCases(prepared.rows, prepared.orderMatters, judgement);
    const witnesses: Witness[] = rowWitnesses(judgement, null);
    let variantsFailed = 0;
    const variantsStarted = performance.now();
    for (const { id, variant } of prepared.variants) {
      const [gold, cand] = await runner.runOnVariant(variant, [
        { query: prepared.task.gold, role: 'gold' },
        { query: candidate.source, role: 'candidate' },
      ]);
      let pass = true;
      if (gold?.ok && cand) {
        const j = cand.ok ? judge(gold.table, cand.table, cmp) : null;
        const failure = cand.ok ? j?.error?.message : cand.error.message;
        pass = j?.outcome?.equal === true;
        if (failure !== undefined) witnesses.push({ ...failingVariantWitness(variant, failure), caseId: id });
        else if (j) witnesses.push(...rowWitnesses(j, variant, id));
      }
      if (!pass) variantsFailed++;
      cases.push({ id, pass });
    }
    if (prepared.variants.length) times.variantsMs = performance.now() - variantsStarted;
    return {
      pass: cases.every((c) => c.pass),
      cases,
      witnesses,
      timings: timings(),
      detail: { ...detail, variantsFailed },
    };
  }

  const runtime: CypherRuntime = { runner, variantsPerRound: settings.variantsPerRound, comparison };

  return {
    name: 'cypher',
    language: 'cypher',
    render,
    hardener: cypherHardener(runtime),
    observer: cypherObserver(runner),
    settings: () => ({
      semantics: 'cypherbench-execution-accuracy',
      columnPermutation: 'exact',
      rowOrder: 'list when the gold contains "order by", else multiset',
      timeoutMs: settings.timeoutMs,
      goldTimeoutMs: settings.goldTimeoutMs,
      maxRows: settings.maxRows,
      maxResultBytes: settings.maxResultBytes,
      maxQueryBytes: settings.maxQueryBytes,
      exactStringShortcut: settings.exactStringShortcut,
      boolEqualsInt: settings.boolEqualsInt,
      checkAnswers: settings.checkAnswers,
      variantsPerRound: settings.variantsPerRound,
    }),
    promptVariables: (task) => {
      const graph = String(task.context?.graph ?? '');
      const kg = graphs.get(graph);
      let schema = schemas.get(graph);
      if (schema === undefined) {
        schema = kg ? schemaText(kg.schema) : '(unknown graph)';
        schemas.set(graph, schema);
      }
      return { schema, graph };
    },
    prepare,
    extract: extractCypher,
    check,
    simulator: cypherSimulator(runtime),
    dispose: () => runner.close(),
  };
}
