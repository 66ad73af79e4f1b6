/**
 * CypherBench over several graphs: Neo4j Community holds one graph per server, so there is one
 * Cypher oracle per graph (each on its server) and this oracle sends every call to the one of the
 * task's graph. Settings, extraction and rendering are the same for all of them.
 */
import { TaskInputError, type Oracle, type SimulatedOracle } from '../../core/oracle.ts';
import type { PublicTask } from '../../core/types.ts';
import { cypherOracle } from './oracle.ts';
import type { CypherOracleOptions, CypherPrepared } from './prepared.ts';
import type { SimpleKG } from './simplekg.ts';

export interface ServedGraph {
  kg: SimpleKG;
  /** Bolt URI of the server holding it. */
  uri: string;
}

/** One oracle for graphs on their own servers; with a single graph, the plain Cypher oracle. */
export function servedCypherOracle(
  graphs: readonly ServedGraph[],
  options: Omit<CypherOracleOptions, 'uri' | 'graphs'> = {},
): SimulatedOracle<CypherPrepared> {
  const [only] = graphs;
  if (graphs.length === 1 && only) return cypherOracle({ ...options, uri: only.uri, graphs: [only.kg] });
  const byGraph = new Map(
    graphs.map((g) => [g.kg.schema.name, cypherOracle({ ...options, uri: g.uri, graphs: [g.kg] })]),
  );
  // With no graph at all the oracle still answers the graph-independent calls (every task is an issue then).
  const first = byGraph.values().next().value ?? cypherOracle({ ...options, uri: 'bolt://127.0.0.1:7687', graphs: [] });
  const known = () => [...byGraph.keys()].join(', ') || 'none';
  const forTask = (task: PublicTask) => byGraph.get(String(task.context?.graph ?? ''));
  const forPrepared = (prepared: CypherPrepared) => {
    const oracle = byGraph.get(prepared.graph);
    if (!oracle) throw new Error(`question ${prepared.task.id}: graph ${prepared.graph} has no server`);
    return oracle;
  };
  const hardener = (p: CypherPrepared) => forPrepared(p).hardener as NonNullable<Oracle<CypherPrepared>['hardener']>;
  const observer = (p: CypherPrepared) => forPrepared(p).observer as NonNullable<Oracle<CypherPrepared>['observer']>;
  return {
    name: first.name,
    language: first.language,
    settings: () => first.settings(),
    render: first.render,
    extract: (reply) => first.extract(reply),
    promptVariables: (task) => (forTask(task) ?? first).promptVariables(task),
    prepare: async (task) => {
      const oracle = forTask(task);
      if (!oracle)
        throw new TaskInputError(
          `question ${task.id}`,
          `graph ${JSON.stringify(task.context?.graph ?? '')} is not one of the loaded graphs (${known()})`,
        );
      return oracle.prepare(task);
    },
    check: (prepared, candidate) => forPrepared(prepared).check(prepared, candidate),
    simulator: {
      mutate: (prepared, program, rng) => forPrepared(prepared).simulator.mutate(prepared, program, rng),
      answer: (prepared, program) => forPrepared(prepared).simulator.answer(prepared, program),
      agrees: (prepared, candidate, witness) => forPrepared(prepared).simulator.agrees(prepared, candidate, witness),
    },
    hardener: {
      probe: (prepared, candidate, probeOptions) => hardener(prepared).probe(prepared, candidate, probeOptions),
      extend: (prepared, witnesses) => hardener(prepared).extend(prepared, witnesses),
    },
    observer: {
      observe: (prepared, candidate) => observer(prepared).observe(prepared, candidate),
      describe: (prepared) => observer(prepared).describe(prepared),
    },
    dispose: async () => {
      await Promise.all([...byGraph.values(), ...(byGraph.size ? [] : [first])].map((o) => o.dispose?.()));
    },
  };
}
