/**
 * What HERO-O optimizes: the system section of a seed prompt template (the instructions). The user
 * section, with its placeholders, stays as it is, so a learned prompt fits the same suite.
 */
import { inlinePrompt, type PromptTemplate } from '../../core/prompt.ts';

const SYSTEM = /^---\s*system\s*---\s*$/m;
const USER = /^---\s*user\s*---\s*$/m;

/** The instruction text of a template (its system section), or '' when it has none. */
export function instructionsOf(template: PromptTemplate): string {
  const text = template.text;
  const system = SYSTEM.exec(text);
  if (!system) return '';
  const start = system.index + system[0].length;
  const user = USER.exec(text.slice(start));
  return text.slice(start, user ? start + user.index : text.length).trim();
}

/** The template with its instructions replaced (or added, for a template without a system section). */
export function withInstructions(template: PromptTemplate, instructions: string, file = 'learned'): PromptTemplate {
  if (/\{\{/.test(instructions)) throw new Error('instructions may not contain template placeholders ({{…}})');
  const text = template.text;
  const user = USER.exec(text);
  const userPart = user ? text.slice(user.index) : `--- user ---\n${text.trim()}\n`;
  const learned = `--- system ---\n${instructions.trim()}\n${userPart}`;
  return { ...inlinePrompt(learned.endsWith('\n') ? learned : `${learned}\n`), file };
}
