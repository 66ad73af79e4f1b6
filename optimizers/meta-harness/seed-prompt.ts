/**
 * HERO-O's learned prompt as seed harnesses (`--seed-prompt <learned.md | hero-report.json>`):
 * `hero-o` answers with the learned instructions added to the first turn's system text (zero-shot
 * over that prompt), `hero-o-verify` does the same and then verifies through the observer as the
 * self-verify seed does. The modules are rendered here with the instructions as one string literal,
 * so they validate (and pass the leak filter, or not) like any candidate.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { inlinePrompt } from '../../core/prompt.ts';
import { instructionsOf } from '../hero/template.ts';
import { seedHarnessFile } from './seeds.ts';

/** A seed harness given as source rather than a built-in file. */
export interface SourceSeed {
  name: string;
  source: string;
  hypothesis: string;
  mechanism: string;
}

/** The learned instructions of a HERO-O output: hero-report.json's final template, or a prompt file's system section (the whole text when it has none). */
export function readLearnedInstructions(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--seed-prompt ${file}: cannot read it: ${(error as Error).message}`);
  }
  if (file.endsWith('.json')) {
    let report: unknown;
    try {
      report = JSON.parse(text);
    } catch (error) {
      throw new Error(`--seed-prompt ${file}: not JSON: ${(error as Error).message}`);
    }
    const template = (report as { final?: { template?: unknown } } | null)?.final?.template;
    if (typeof template !== 'string')
      throw new Error(
        `--seed-prompt ${file}: not a HERO-O report (no final.template string; expected the hero-report.json of witness optimize hero)`,
      );
    text = template;
  }
  const instructions = /^---\s*system\s*---\s*$/m.test(text) ? instructionsOf(inlinePrompt(text)) : text.trim();
  if (!instructions)
    throw new Error(`--seed-prompt ${file}: the learned prompt has no instructions (an empty system section)`);
  return instructions;
}

const HEADER = (kind: string) =>
  `/** HERO-O's learned prompt as a seed harness: ${kind}. Written by the search from --seed-prompt. */\n`;

/** The two seeds over a learned prompt: zero-shot over it, and self-verify over it. */
export function learnedPromptSeeds(instructions: string, file: string): SourceSeed[] {
  const literal = JSON.stringify(instructions);
  const zeroShot = `${HEADER('one answer with the learned instructions')}import { defineHarness } from 'witness-harness';

const LEARNED = ${literal};

export default defineHarness({
  name: 'hero-o',
  async solve(ctx) {
    const { program } = await ctx.model.answer({ system: LEARNED });
    return { program };
  },
});
`;
  const verify = readFileSync(seedHarnessFile('self-verify'), 'utf8');
  const answer = 'await ctx.model.answer();';
  if (!verify.includes(answer)) throw new Error('the self-verify seed no longer starts with ctx.model.answer()');
  const verifying = `${HEADER('the self-verify seed answering with the learned instructions')}${verify
    .replace(answer, 'await ctx.model.answer({ system: LEARNED });')
    .replace("name: 'self-verify'", "name: 'hero-o-verify'")
    .replace(/(\nconst MAX_REPAIRS)/, `\nconst LEARNED = ${literal};$1`)}`;
  const from = `HERO-O's learned prompt (${basename(file)})`;
  return [
    {
      name: 'hero-o',
      source: zeroShot,
      hypothesis: `${from} helps the first answer on its own`,
      mechanism: 'seed: zero-shot over the learned prompt',
    },
    {
      name: 'hero-o-verify',
      source: verifying,
      hypothesis: `${from} and verification through the observer add up`,
      mechanism: 'seed: self-verify over the learned prompt',
    },
  ];
}
