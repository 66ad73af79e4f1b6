/**
 * A CypherBench data folder read for a run: the questions of one split and the graphs they use,
 * each graph file read and validated once. A question whose graph has no file, or whose graph file
 * is broken, becomes an issue naming the question and the file; the other questions keep their
 * graphs. Graphs no selected question uses are never read.
 */
import type { LoadedTasks, Task, TaskIssue } from '../../core/types.ts';
import { findGraphFile, resolveCypherBenchLayout } from './layout.ts';
import { loadCypherBenchQuestions } from './loader.ts';
import { readSimpleKG, type SimpleKG } from './simplekg.ts';

export interface CypherBenchGraph {
  name: string;
  file: string;
  kg: SimpleKG;
}

export interface CypherBenchData extends LoadedTasks {
  split: string;
  questionsFile: string;
  /** The graphs the loaded questions use, in order of first use. */
  graphs: CypherBenchGraph[];
}

/** The graph a task runs on. */
export const graphOf = (task: Task) => String(task.context?.graph ?? '');

/** Reads the split's questions and the graphs they use. Throws only when the folder itself is not usable. */
export function loadCypherBenchData(data: string, split?: string): CypherBenchData {
  const layout = resolveCypherBenchLayout(data, split);
  const questions = loadCypherBenchQuestions(layout.questionsFile);
  const graphs = new Map<string, CypherBenchGraph | { problem: string }>();
  for (const name of new Set(questions.tasks.map(graphOf))) {
    const found = findGraphFile(layout.root, name);
    if ('problem' in found) {
      graphs.set(name, found);
      continue;
    }
    try {
      graphs.set(name, { name, file: found.file, kg: readSimpleKG(found.file) });
    } catch (error) {
      graphs.set(name, { problem: `graph ${name}: ${(error as Error).message}` });
    }
  }
  const tasks: Task[] = [];
  const issues: TaskIssue[] = [...questions.issues];
  for (const task of questions.tasks) {
    const graph = graphs.get(graphOf(task));
    if (graph && 'problem' in graph) issues.push({ item: `question ${task.id}`, message: graph.problem });
    else tasks.push(task);
  }
  const usable = [...graphs.values()].filter((g): g is CypherBenchGraph => !('problem' in g));
  return { split: layout.split, questionsFile: layout.questionsFile, tasks, issues, graphs: usable };
}

/** Moves the tasks of graphs without a server to the issues, with the reason. */
export function withoutUnservedGraphs(loaded: LoadedTasks, unserved: ReadonlyMap<string, string>): LoadedTasks {
  const issues = [...loaded.issues];
  const tasks = loaded.tasks.filter((task) => {
    const reason = unserved.get(graphOf(task));
    if (reason === undefined) return true;
    // An engine that would not serve the graph is Witness's side, not the question's.
    issues.push({
      item: `question ${task.id}`,
      message: `graph ${graphOf(task)} could not be served: ${reason}`,
      kind: 'harness-error',
    });
    return false;
  });
  return { tasks, issues };
}
