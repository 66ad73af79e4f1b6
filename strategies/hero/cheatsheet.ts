/**
 * Dynamic Cheatsheet, cumulative mode (baseline): a memory of reusable strategies that persists
 * across test instances. Each instance is answered with the cheatsheet added to the instructions;
 * then a curator call sees the task, the program and what running it showed (never whether it was
 * right) and rewrites the cheatsheet.
 *
 * Order, not timing, decides the memory: each instance sees exactly the cheatsheet its
 * predecessors in task order left, as in the paper's cumulative mode. The strategy is
 * `sequential`, so the suite runs its episodes one at a time in dataset order (whatever vitest's
 * concurrency settings), and the memory refuses to be used by two episodes at once — a runner that
 * ignores `sequential` gets a harness error naming both tasks, never a memory shaped by whichever
 * reply came back first. There is one memory per (benchmark, trial): repeated trials are
 * independent runs, and no benchmark inherits another's cheatsheet.
 */
import { pickCodeBlock } from '../../core/extract.ts';
import { renderPrompt, type PromptTemplate } from '../../core/prompt.ts';
import { formatObservation } from '../harness/child/sdk.mjs';
import type { RefinementSession } from '../../core/refinement.ts';

export interface CheatsheetOptions {
  curatorPrompt: PromptTemplate;
  /** Longest cheatsheet kept, in lines (default 25). */
  maxLines: number;
}

/** One cumulative cheatsheet: its text, how often the curator rewrote it, and the episode using it. */
interface Sheet {
  text: string;
  updates: number;
  busyWith: string | null;
}

/** The cheatsheets of one strategy instance, one per (benchmark, trial). */
export class CheatsheetMemory {
  private readonly sheets = new Map<string, Sheet>();

  /** The cheatsheet a session works with, claimed until `release`; throws if another episode holds it. */
  claim(session: RefinementSession): Sheet {
    const key = `${session.task.benchmark}\u0000${session.trial}`;
    let sheet = this.sheets.get(key);
    if (!sheet) {
      sheet = { text: '', updates: 0, busyWith: null };
      this.sheets.set(key, sheet);
    }
    if (sheet.busyWith !== null) {
      throw new Error(
        `Dynamic Cheatsheet: the episode of task ${session.task.id} started while the one of task ${sheet.busyWith} was still running ` +
          `(benchmark ${session.task.benchmark}, trial ${session.trial}); its memory needs one episode at a time in task order, ` +
          'so run this sequential strategy one episode at a time',
      );
    }
    sheet.busyWith = session.task.id;
    return sheet;
  }

  /** The current text of a (benchmark, trial) cheatsheet; '' before its first update. */
  text(benchmark: string, trial: number): string {
    return this.sheets.get(`${benchmark}\u0000${trial}`)?.text ?? '';
  }
}

/** One instance: answer with the cheatsheet, observe the program, let the curator rewrite the cheatsheet. */
export async function cheatsheetEpisode(
  session: RefinementSession,
  memory: CheatsheetMemory,
  options: CheatsheetOptions,
): Promise<void> {
  const sheet = memory.claim(session);
  try {
    await curate(session, sheet, options);
  } finally {
    sheet.busyWith = null;
  }
}

async function curate(session: RefinementSession, sheet: Sheet, options: CheatsheetOptions): Promise<void> {
  const before = sheet.text;
  const program = await session.initial(before ? `Cheatsheet of strategies from earlier tasks:\n${before}` : undefined);
  if (!program) {
    session.log({ action: 'memory', note: 'no program; cheatsheet unchanged', lines: lineCount(before) });
    return;
  }
  const observation = formatObservation(await session.observe(program));
  const reply = await session.ask(
    renderPrompt(options.curatorPrompt, {
      language: session.language,
      cheatsheet: before || '(empty)',
      description: session.task.description,
      program: program.source,
      observation,
    }),
    'memory',
  );
  const block = reply === null ? null : pickCodeBlock(reply, ['cheatsheet']);
  if (!block || !block.body.trim()) {
    session.log({
      action: 'memory',
      note: `${reply === null ? 'the curator call failed' : 'no cheatsheet in the curator reply'}; unchanged`,
      lines: lineCount(before),
    });
    return;
  }
  sheet.text = block.body.trim().split('\n').slice(0, options.maxLines).join('\n');
  sheet.updates++;
  session.log({ action: 'memory', lines: lineCount(sheet.text), updates: sheet.updates });
}

function lineCount(text: string): number {
  return text ? text.split('\n').length : 0;
}
