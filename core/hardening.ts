/**
 * Hardening after a hidden-set success (A-CEGIS §hardening): each cycle probes the candidate beyond
 * the hidden cases, adds at most `maxAdded` disagreeing probes to the case set and allows one
 * repair attempt with the strategy's own feedback; then a final probe pass decides robustness
 * (or the oracle's exact check when it has one).
 *
 * Statuses: hidden = passed the hidden cases; hardened = also passes the probe-expanded set;
 * robust = hardened, and the final check (exact when decidable, else the final probe pass) found
 * no disagreement. A solution whose exact check is undecided (`exact` says 'undecided') is never
 * robust: the probes alone cannot vouch for what the exact check could not settle.
 */
import type { Conversation } from './conversation.ts';
import type { Hardener, Oracle, PreparedTask } from './oracle.ts';
import { Rng } from './random.ts';
import type { FeedbackStrategy } from './strategy.ts';
import type { Candidate, HardeningRecord, PublicTask, Witness } from './types.ts';

export interface HardeningOptions {
  /** Probe cycles with a repair attempt each (paper: 2). */
  maxCycles: number;
  /** Probes evaluated per cycle (paper: 320). */
  maxProbes: number;
  /** Disagreeing probes added to the case set per cycle (paper: 4). */
  maxAdded: number;
}

export const DEFAULT_HARDENING: HardeningOptions = { maxCycles: 2, maxProbes: 320, maxAdded: 4 };

export interface HardeningInput<P extends PreparedTask> {
  oracle: Oracle<P>;
  hardener: Hardener<P>;
  prepared: P;
  candidate: Candidate;
  /** Whose feedback the repair attempts get; null (a refining strategy) makes no repair attempt. */
  strategy: FeedbackStrategy | null;
  conversation: Conversation<P>;
  task: PublicTask;
  options: HardeningOptions;
  seed: number;
}

export async function hardenSolution<P extends PreparedTask>(input: HardeningInput<P>): Promise<HardeningRecord> {
  const { oracle, hardener, strategy, conversation, options } = input;
  const rng = new Rng(input.seed);
  let current = input.prepared;
  let candidate = input.candidate;
  let hardened = true;
  let cycles = 0;
  let probesRun = 0;
  let repairs = 0;
  const added: Witness[] = [];

  for (let cycle = 1; cycle <= options.maxCycles; cycle++) {
    cycles = cycle;
    const report = await hardener.probe(current, candidate, {
      rng: rng.fork(cycle),
      maxProbes: options.maxProbes,
      round: cycle,
    });
    probesRun += report.probed;
    if (report.disagreements.length === 0) break;
    const found = report.disagreements.slice(0, options.maxAdded);
    added.push(...found);
    current = hardener.extend(current, found);
    const verdict = await oracle.check(current, candidate);
    const feedback =
      verdict.pass || !strategy
        ? null
        : strategy.feedback(verdict, {
            task: input.task,
            render: oracle.render,
            turn: conversation.turns.length,
            phase: 'hardening',
          });
    if (!feedback) {
      hardened = verdict.pass;
      break;
    }
    // The feedback answers a check on the expanded case set, not a turn's own verdict: it is
    // recorded as the opening message of the repair turn.
    conversation.giveFeedback(null, feedback);
    repairs++;
    const turn = await conversation.takeTurn('hardening', current);
    if (!turn.verdict.pass || !turn.candidate) {
      hardened = false;
      break;
    }
    candidate = turn.candidate;
  }

  let sampledClean = false;
  let exact: boolean | null = null;
  let undecided = false;
  if (hardened) {
    const final = await hardener.probe(current, candidate, {
      rng: rng.fork('final'),
      maxProbes: options.maxProbes,
      round: 0,
    });
    probesRun += final.probed;
    sampledClean = final.disagreements.length === 0;
    const checked = hardener.exact ? await hardener.exact(current, candidate) : null;
    undecided = checked === 'undecided';
    exact = undecided ? null : (checked as boolean | null);
  }
  const robust = hardened && !undecided && (exact ?? sampledClean);
  return {
    status: robust ? 'robust' : hardened ? 'hardened' : 'hidden',
    cycles,
    probesRun,
    probesAdded: added.length,
    repairs,
    sampledClean,
    exact,
    added,
  };
}
