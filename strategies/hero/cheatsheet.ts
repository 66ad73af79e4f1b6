/**
 * Dynamic Cheatsheet, cumulative mode (baseline): a memory of reusable strategies that persists
 * across test instances. Each instance is answered with the cheatsheet added to the instructions;
 * then a curator call sees the task, the program and what running it showed (never whether it was
 * right) and rewrites the cheatsheet. Instances run one at a time in task order, so the memory
 * evolves deterministically.
 */
import { pickCodeBlock } from '../../core/extract.ts';
import { renderPrompt, type PromptTemplate } from '../../core/prompt.ts';
import { formatObservation } from './refiner.ts';
import type { RefinementSession } from '../../core/refinement.ts';

export interface CheatsheetOptions {
  curatorPrompt: PromptTemplate;
  /** Longest cheatsheet kept, in lines (default 25). */
  maxLines: number;
}

export class CheatsheetMemory {
  text = '';
  updates = 0;
}

export async function cheatsheetEpisode(session: RefinementSession, memory: CheatsheetMemory, options: CheatsheetOptions): Promise<void> {
  const before = memory.text;
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
    session.log({ action: 'memory', note: 'no cheatsheet in the curator reply; unchanged', lines: lineCount(before) });
    return;
  }
  memory.text = block.body.trim().split('\n').slice(0, options.maxLines).join('\n');
  memory.updates++;
  session.log({ action: 'memory', lines: lineCount(memory.text), updates: memory.updates });
}

function lineCount(text: string): number {
  return text ? text.split('\n').length : 0;
}
