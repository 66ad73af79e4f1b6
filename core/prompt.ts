/**
 * Seed prompts are plain files a user can edit. Format: an optional `--- system ---` section and a
 * `--- user ---` section (a file without markers is one user message). `{{name}}` placeholders are
 * filled from the task and the oracle; an unknown placeholder is an error naming the file.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ChatMessage } from './types.ts';

export interface PromptTemplate {
  /** Where it came from (a path, or `inline`). */
  file: string;
  text: string;
  /** First 16 hex digits of the sha256 of the file's bytes: the identity CI gates compare. */
  hash: string;
}

const SECTION = /^---\s*(system|user)\s*---\s*$/gm;
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export function promptHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Reads a prompt template file; the error names the path. */
export function loadPrompt(path: string): PromptTemplate {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read prompt template ${path}: ${(error as Error).message}`);
  }
  return { file: path, text, hash: promptHash(text) };
}

export function inlinePrompt(text: string): PromptTemplate {
  return { file: 'inline', text, hash: promptHash(text) };
}

/** Fills the template's placeholders and splits it into chat messages. */
export function renderPrompt(template: PromptTemplate, variables: Record<string, string>): ChatMessage[] {
  const filled = template.text.replace(PLACEHOLDER, (_, name: string) => {
    const value = variables[name];
    if (value === undefined) {
      const known = Object.keys(variables).sort().join(', ');
      throw new Error(`prompt template ${template.file}: unknown placeholder {{${name}}} (known: ${known})`);
    }
    return value;
  });
  const markers = [...filled.matchAll(SECTION)];
  if (markers.length === 0) return [{ role: 'user', content: filled.trim() }];
  const messages: ChatMessage[] = [];
  markers.forEach((marker, i) => {
    const start = (marker.index ?? 0) + marker[0].length;
    const end = markers[i + 1]?.index ?? filled.length;
    const content = filled.slice(start, end).trim();
    if (content) messages.push({ role: marker[1] as 'system' | 'user', content });
  });
  if (!messages.some((m) => m.role === 'user')) {
    throw new Error(`prompt template ${template.file}: no --- user --- section`);
  }
  return messages;
}
