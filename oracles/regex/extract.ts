/**
 * Finding the regex in a reply: a fenced block (regex/re/js/python/text or unlabelled; its first
 * non-empty line), else a one-line reply, else the last inline code span. `/…/flags` literals and
 * Python raw strings (r"…") are unwrapped.
 */
import { pickCodeBlock } from '../../core/extract.ts';
import type { Candidate } from '../../core/types.ts';

const LANGUAGES = ['regex', 'regexp', 're', 'js', 'javascript', 'python', 'py', 'text', 'txt'];

function unwrap(text: string, extraction: Candidate['extraction']): Candidate | null {
  let s = text.trim();
  if (s === '') return null;
  const raw = /^[rR]?(["'])(.*)\1$/.exec(s);
  if (raw) s = raw[2] as string;
  if (/^\/.*\/[a-z]*$/.test(s) && s.length >= 2 && s.lastIndexOf('/') > 0) return { source: s, extraction: 'literal' };
  return { source: s, extraction };
}

export function extractRegex(reply: string): Candidate | null {
  const block = pickCodeBlock(reply, LANGUAGES);
  if (block) {
    const line = block.body.split('\n').find((l) => l.trim() !== '');
    return line === undefined ? null : unwrap(line, 'code-block');
  }
  const lines = reply.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 1) {
    const only = (lines[0] as string).trim();
    const inline = /^`([^`]+)`$/.exec(only);
    return unwrap(inline ? (inline[1] as string) : only, 'whole-reply');
  }
  const spans = [...reply.matchAll(/`([^`\n]+)`/g)];
  const last = spans.at(-1);
  return last ? unwrap(last[1] as string, 'whole-reply') : null;
}
