/**
 * HERO-O: offline optimization of a reusable prompt from execution evidence.
 *
 * Each of T rounds (default 5, no early stop): run the current prompt on the diagnosis pool; render
 * evidence from successes and failures (up to 32 of each) with programs and execution feedback; a
 * reflector proposes K revised instruction texts (default 4); candidates that leak instance
 * specifics are rejected; each remaining candidate is compared with the current prompt on the update
 * pool by adaptive paired acceptance. Adopted candidates go to the archive, and the best adopted one
 * (largest mean paired improvement, then fewer tokens) becomes the current prompt. After the last
 * round the final prompt is chosen on the selection pool among the seed prompt and the archive
 * (most passes, then fewer tokens, then earlier).
 */
import { pickCodeBlock, codeBlocks } from '../../core/extract.ts';
import { estimateTokens, type ChatModel } from '../../core/models/model.ts';
import { STEERABLE_SIM_NAME } from '../../core/models/steerable-sim.ts';
import type { Oracle, PreparedTask } from '../../core/oracle.ts';
import { renderPrompt, type PromptTemplate } from '../../core/prompt.ts';
import type { Task } from '../../core/types.ts';
import { decideAcceptance, DEFAULT_ACCEPTANCE, type AcceptanceDecision, type AcceptanceOptions } from './acceptance.ts';
import { PromptEvaluator, renderEvidence } from './evaluate.ts';
import { findLeaks, leakTokens, type LeakSource } from './leak.ts';
import { drawPools, type HeroPools } from '../../strategies/hero/pools.ts';
import type { VerifiedExample } from '../../strategies/hero/retrieve.ts';
import { instructionsOf, withInstructions } from './template.ts';

export interface HeroOptions {
  rounds: number;
  candidates: number;
  /** Evidence items per side (successes, failures). */
  evidencePerSide: number;
  acceptance: AcceptanceOptions;
  seed: number;
  trainFraction?: number;
}

export const DEFAULT_HERO: HeroOptions = {
  rounds: 5,
  candidates: 4,
  evidencePerSide: 32,
  acceptance: DEFAULT_ACCEPTANCE,
  seed: 1,
};

export interface CandidateRecord {
  index: number;
  tokens: number;
  /** 'leak: …', 'invalid: …', or the acceptance decision. */
  outcome: 'rejected-leak' | 'rejected-invalid' | 'adopted' | 'rejected';
  leaks?: string[];
  problem?: string;
  decision?: AcceptanceDecision;
  text: string;
}

export interface RoundRecord {
  round: number;
  currentHash: string;
  diagnosisPassRate: number;
  reflectorCall: { promptTokens: number; completionTokens: number; estimated: boolean } | null;
  reflectorError?: string;
  candidates: CandidateRecord[];
  adoptedIndex: number | null;
  /** Cumulative fixes / breaks of adopted updates on the update pool so far, and their ratio. */
  cumulative: { fixes: number; breaks: number; ratio: number };
}

export interface HeroRunInput {
  benchmark: string;
  tasks: Task[];
  oracle: Oracle<PreparedTask>;
  seedPrompt: PromptTemplate;
  model: ChatModel;
  reflector: ChatModel;
  reflectPrompt: PromptTemplate;
  options: HeroOptions;
  /** The pools to use (from a split file); drawn from `tasks` by `options.seed` when left out. */
  pools?: HeroPools<Task>;
  onProgress?: (message: string) => void;
}

export interface HeroResult {
  schema: 'witness.hero-o';
  version: 1;
  benchmark: string;
  model: ChatModel['info'];
  reflector: ChatModel['info'];
  /** Set when the task model is the sim: its answers ignore prompts, so these numbers say nothing about prompt quality. */
  privilegedNotice: string | null;
  options: HeroOptions;
  pools: { diagnosis: string[]; update: string[]; selection: string[]; test: string[]; sharedSelection: boolean };
  seed: { hash: string; tokens: number };
  rounds: RoundRecord[];
  archive: { hash: string; tokens: number; round: number; text: string }[];
  final: {
    hash: string;
    tokens: number;
    source: string;
    selectionPasses: { hash: string; passes: number; of: number }[];
    template: string;
  };
  calls: { reflector: { count: number; tokens: number; meanPerCall: number }; task: { count: number; tokens: number } };
  /** Training tasks the final prompt solved, with the verified program: HERO-T's retrieval pool. */
  verifiedExamples: VerifiedExample[];
}

const ids = (tasks: readonly Task[]) => tasks.map((t) => t.id);
const tokensOf = (template: PromptTemplate) => estimateTokens(instructionsOf(template) || template.text);

export async function optimizePrompt(input: HeroRunInput): Promise<HeroResult> {
  const { options, oracle } = input;
  const say = input.onProgress ?? (() => {});
  const pools: HeroPools<Task> =
    input.pools ??
    drawPools(input.tasks, {
      seed: options.seed,
      ...(options.trainFraction ? { trainFraction: options.trainFraction } : {}),
    });
  const evaluator = new PromptEvaluator(oracle, input.model, options.seed);
  let current = input.seedPrompt;
  const archive: HeroResult['archive'] = [];
  const rounds: RoundRecord[] = [];
  let fixes = 0;
  let breaks = 0;
  let reflectorCalls = 0;
  let reflectorTokens = 0;

  for (let round = 1; round <= options.rounds; round++) {
    const diagnosis = await evaluator.evaluateAll(current, pools.diagnosis);
    const passRate = diagnosis.filter((r) => r.pass).length / Math.max(1, diagnosis.length);
    say(
      `round ${round}/${options.rounds}: current prompt passes ${(100 * passRate).toFixed(0)}% of the diagnosis pool`,
    );
    const evidence = renderEvidence(diagnosis, options.evidencePerSide, oracle.language);
    const messages = renderPrompt(input.reflectPrompt, {
      language: oracle.language,
      count: String(options.candidates),
      prompt: instructionsOf(current),
      successes: String(evidence.successes),
      failures: String(evidence.failures),
      evidence: evidence.text || '(none)',
    });
    const record: RoundRecord = {
      round,
      currentHash: current.hash,
      diagnosisPassRate: passRate,
      reflectorCall: null,
      candidates: [],
      adoptedIndex: null,
      cumulative: { fixes, breaks, ratio: fixes / Math.max(1, breaks) },
    };
    let proposals: string[] = [];
    try {
      const reply = await input.reflector.complete({ messages, trial: 0, purpose: 'reflect' });
      reflectorCalls++;
      reflectorTokens += reply.usage.promptTokens + reply.usage.completionTokens;
      record.reflectorCall = {
        promptTokens: reply.usage.promptTokens,
        completionTokens: reply.usage.completionTokens,
        estimated: reply.usage.estimated === true,
      };
      proposals = [
        ...new Set(
          codeBlocks(reply.content)
            .filter((b) => b.language === 'prompt')
            .map((b) => b.body.trim())
            .filter(Boolean),
        ),
      ].slice(0, options.candidates);
      if (proposals.length === 0 && pickCodeBlock(reply.content, ['prompt']))
        proposals = [pickCodeBlock(reply.content, ['prompt'])!.body.trim()];
    } catch (error) {
      record.reflectorError = (error as Error).message;
    }
    const leaks = leakTokens(
      await leakSources(
        pools.diagnosis,
        diagnosis.map((r) => r.program),
        evaluator,
        oracle,
      ),
    );
    let best: { index: number; template: PromptTemplate; decision: AcceptanceDecision } | null = null;
    for (const [index, text] of proposals.entries()) {
      const base: CandidateRecord = { index, tokens: estimateTokens(text), outcome: 'rejected', text };
      const found = findLeaks(text, leaks);
      if (found.length > 0) {
        record.candidates.push({ ...base, outcome: 'rejected-leak', leaks: found });
        continue;
      }
      let template: PromptTemplate;
      try {
        template = withInstructions(current, text, `hero round ${round} candidate ${index}`);
      } catch (error) {
        record.candidates.push({ ...base, outcome: 'rejected-invalid', problem: (error as Error).message });
        continue;
      }
      const decision = await decideAcceptance(
        pools.update.length,
        async (i) => {
          const task = pools.update[i] as Task;
          const [before, after] = await Promise.all([
            evaluator.evaluate(current, task),
            evaluator.evaluate(template, task),
          ]);
          return before.pass === after.pass ? 'unchanged' : after.pass ? 'fix' : 'break';
        },
        options.acceptance,
      );
      record.candidates.push({ ...base, outcome: decision.adopt ? 'adopted' : 'rejected', decision });
      if (decision.adopt) {
        archive.push({ hash: template.hash, tokens: tokensOf(template), round, text: template.text });
        const mean = decision.steps.at(-1)?.mean ?? 0;
        const bestMean = best?.decision.steps.at(-1)?.mean ?? -Infinity;
        if (!best || mean > bestMean || (mean === bestMean && tokensOf(template) < tokensOf(best.template)))
          best = { index, template, decision };
      }
    }
    if (best) {
      fixes += best.decision.fixes;
      breaks += best.decision.breaks;
      current = best.template;
      record.adoptedIndex = best.index;
    }
    record.cumulative = { fixes, breaks, ratio: fixes / Math.max(1, breaks) };
    rounds.push(record);
    say(
      `round ${round}: ${proposals.length} proposals, ${record.candidates.filter((c) => c.outcome === 'adopted').length} adopted`,
    );
  }

  const contenders = [
    { template: input.seedPrompt, order: 0 },
    ...archive.map((a, i) => ({ template: { file: `archive ${i}`, text: a.text, hash: a.hash }, order: i + 1 })),
  ];
  const scored = await Promise.all(
    contenders.map(async (c) => ({
      ...c,
      passes: (await evaluator.evaluateAll(c.template, pools.selection)).filter((r) => r.pass).length,
    })),
  );
  scored.sort((a, b) => b.passes - a.passes || tokensOf(a.template) - tokensOf(b.template) || a.order - b.order);
  const winner = scored[0] as (typeof scored)[number];
  const train = [...pools.diagnosis, ...pools.update, ...(pools.sharedSelection ? [] : pools.selection)];
  const finalResults = await evaluator.evaluateAll(winner.template, train);
  const verifiedExamples = finalResults
    .filter((r) => r.pass && r.program !== null)
    .map((r) => ({ taskId: r.taskId, statement: r.statement, program: r.program as string }));

  return {
    schema: 'witness.hero-o',
    version: 1,
    benchmark: input.benchmark,
    model: input.model.info,
    reflector: input.reflector.info,
    privilegedNotice: heroPrivilegedNotice(input.model.info),
    options,
    pools: {
      diagnosis: ids(pools.diagnosis),
      update: ids(pools.update),
      selection: ids(pools.selection),
      test: ids(pools.test),
      sharedSelection: pools.sharedSelection,
    },
    seed: { hash: input.seedPrompt.hash, tokens: tokensOf(input.seedPrompt) },
    rounds,
    archive,
    final: {
      hash: winner.template.hash,
      tokens: tokensOf(winner.template),
      source:
        winner.order === 0 ? 'seed prompt' : `archive ${winner.order - 1} (round ${archive[winner.order - 1]?.round})`,
      selectionPasses: scored.map((s) => ({ hash: s.template.hash, passes: s.passes, of: pools.selection.length })),
      template: winner.template.text,
    },
    calls: {
      reflector: {
        count: reflectorCalls,
        tokens: reflectorTokens,
        meanPerCall: reflectorCalls ? reflectorTokens / reflectorCalls : 0,
      },
      task: { count: evaluator.calls, tokens: evaluator.tokens },
    },
    verifiedExamples,
  };
}

/** What a HERO-O report says about a privileged task model: the sim ignores prompts, the steerable sim is steered by planted rules. */
export function heroPrivilegedNotice(model: ChatModel['info']): string | null {
  if (!model.privileged) return null;
  if (model.name === STEERABLE_SIM_NAME)
    return 'The task model is the privileged steerable sim: it knows the gold and its planted mistakes respond to rules in the prompt, so these numbers show whether HERO finds and keeps those rules, not how good a prompt is for a real model.';
  return 'The task model is the privileged sim model, which cannot read prompts: HERO ran mechanically and these numbers mean nothing about prompt quality.';
}

async function leakSources(
  tasks: readonly Task[],
  programs: (string | null)[],
  evaluator: PromptEvaluator,
  oracle: Oracle<PreparedTask>,
): Promise<LeakSource[]> {
  return Promise.all(
    tasks.map(async (task, i) => {
      const prepared = await evaluator.prepare(task);
      const schema = oracle.observer ? await oracle.observer.describe(prepared) : '';
      return {
        statement: task.description,
        programs: [task.gold, programs[i]].filter((p): p is string => typeof p === 'string'),
        schema,
      };
    }),
  );
}
