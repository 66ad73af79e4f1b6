import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlinePrompt, loadPrompt, promptHash, renderPrompt } from './prompt.ts';

describe('prompt templates', () => {
  it('splits system and user sections and fills placeholders', () => {
    const t = inlinePrompt('--- system ---\nYou are {{role}}.\n--- user ---\nSolve: {{ description }}\n');
    expect(renderPrompt(t, { role: 'an expert', description: 'lines with dog' })).toEqual([
      { role: 'system', content: 'You are an expert.' },
      { role: 'user', content: 'Solve: lines with dog' },
    ]);
  });

  it('treats a file without markers as one user message', () => {
    expect(renderPrompt(inlinePrompt('Just {{x}}'), { x: 'this' })).toEqual([{ role: 'user', content: 'Just this' }]);
  });

  it('names the file and the placeholder when a variable is unknown', () => {
    expect(() => renderPrompt(inlinePrompt('Hi {{nope}}'), { description: 'd' })).toThrow(
      /inline: unknown placeholder \{\{nope\}\} \(known: description\)/,
    );
  });

  it('rejects a template with no user section', () => {
    expect(() => renderPrompt(inlinePrompt('--- system ---\nonly system'), {})).toThrow(/no --- user --- section/);
  });

  it('hashes the file bytes, so any edit changes the hash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-prompt-'));
    const file = join(dir, 'p.md');
    writeFileSync(file, 'Solve {{description}}');
    const a = loadPrompt(file);
    writeFileSync(file, 'Solve {{description}} ');
    const b = loadPrompt(file);
    expect(a.hash).toHaveLength(16);
    expect(a.hash).not.toBe(b.hash);
    expect(a.hash).toBe(promptHash('Solve {{description}}'));
    expect(() => loadPrompt(join(dir, 'missing.md'))).toThrow(/cannot read prompt template .*missing\.md/);
  });
});
