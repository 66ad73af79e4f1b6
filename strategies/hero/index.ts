/**
 * HERO-T and its baselines as strategies a suite can list: `heroT()`, `reactRefiner()`,
 * `dynamicCheatsheet()`. Budgets are shared: up to 3 evidence actions (ReAct: 3 environment
 * interactions), one revision per instance, the same model and oracle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { packagePath } from '../../core/package-root.ts';
import { loadPrompt, inlinePrompt, type PromptTemplate } from '../../core/prompt.ts';
import type { RefiningStrategy } from '../../core/strategy.ts';
import { CheatsheetMemory, cheatsheetEpisode } from './cheatsheet.ts';
import { refine, type RefinerOptions } from './refiner.ts';
import { ExampleIndex, type VerifiedExample } from './retrieve.ts';

/** Evidence actions per instance of HERO-T and ReAct unless a strategy is built with its own. */
export const DEFAULT_EVIDENCE_ACTIONS = 3;

const prompt = (name: string) => loadPrompt(packagePath('prompts', 'hero', `${name}.md`));

export interface RefinerStrategyOptions {
  /** Evidence actions per instance (default 3). */
  budget?: number;
  /** A HERO-O report (`hero-report.json`): its learned prompt and verified examples are used when the file exists. */
  report?: string;
  /** Verified training examples for retrieval, when there is no report (e.g. `verifiedTrainExamples(spec)`). */
  examples?: () => Promise<VerifiedExample[]>;
  /** Strategy name (defaults: hero-t, react). */
  name?: string;
}

interface HeroReportFile {
  final?: { template?: string; hash?: string };
  verifiedExamples?: VerifiedExample[];
}

/** Reads a HERO-O report; null when the file does not exist, an error naming it when it is broken. */
export function readHeroReport(path: string): { prompt: PromptTemplate; examples: VerifiedExample[] } | null {
  if (!existsSync(path)) return null;
  let value: HeroReportFile;
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as HeroReportFile;
  } catch (error) {
    throw new Error(`${path}: not a HERO-O report: ${(error as Error).message}`);
  }
  if (typeof value.final?.template !== 'string' || !Array.isArray(value.verifiedExamples)) {
    throw new Error(`${path}: not a HERO-O report (final.template and verifiedExamples are required)`);
  }
  return { prompt: { ...inlinePrompt(value.final.template), file: path }, examples: value.verifiedExamples };
}

function refinerStrategy(name: string, gate: boolean, options: RefinerStrategyOptions): RefiningStrategy {
  const fromReport = options.report ? readHeroReport(options.report) : null;
  let index: Promise<ExampleIndex> | undefined;
  const examples = () =>
    (index ??= (async () =>
      new ExampleIndex(fromReport?.examples ?? (options.examples ? await options.examples() : [])))());
  const base: Omit<RefinerOptions, 'examples'> = {
    budget: options.budget ?? DEFAULT_EVIDENCE_ACTIONS,
    retrieveK: 5,
    pickAtMost: 3,
    gate,
    refinePrompt: prompt('refine'),
    judgePrompt: prompt('judge'),
  };
  return {
    kind: 'refining',
    name,
    ...(fromReport ? { prompt: fromReport.prompt } : {}),
    refine: async (session) => refine(session, { ...base, examples: await examples() }),
  };
}

/** HERO-T: evidence-gated test-time refinement (programmatic checks + an LLM judge). */
export function heroT(options: RefinerStrategyOptions = {}): RefiningStrategy {
  return refinerStrategy(options.name ?? 'hero-t', true, options);
}

/** ReAct-style refinement baseline: the same evidence actions, revisions adopted without the gate. */
export function reactRefiner(options: RefinerStrategyOptions = {}): RefiningStrategy {
  return refinerStrategy(options.name ?? 'react', false, options);
}

/** Dynamic Cheatsheet in cumulative mode: a memory that persists across test instances, in task order. */
export function dynamicCheatsheet(options: { name?: string; maxLines?: number } = {}): RefiningStrategy {
  const memory = new CheatsheetMemory();
  const curatorPrompt = prompt('cheatsheet');
  return {
    kind: 'refining',
    name: options.name ?? 'cheatsheet',
    sequential: true,
    refine: (session) => cheatsheetEpisode(session, memory, { curatorPrompt, maxLines: options.maxLines ?? 25 }),
  };
}
