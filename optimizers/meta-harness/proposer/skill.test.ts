/** The skill file stays in step with the agent's protocol and carries the reference's rules. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, DEFAULT_READ_LIMIT, MAX_READ_LIMIT } from './actions.ts';
import { DEFAULT_SKILL_FILE } from './skill.ts';
import { TOOL_LIMITS } from './tools.ts';

const skill = readFileSync(DEFAULT_SKILL_FILE, 'utf8');

describe('the proposer skill file', () => {
  it('documents every action of the protocol and its limits', () => {
    for (const name of ACTION_NAMES) expect(skill).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    expect(skill).toContain(`default ${DEFAULT_READ_LIMIT}, at most ${MAX_READ_LIMIT}`);
    expect(skill).toContain(`at most ${TOOL_LIMITS.grepMatches}`);
  });

  it('holds the rules: report first, one mechanism, copy then change, no dataset-specific hints', () => {
    expect(skill).toMatch(/\*\*Report first\.\*\*/);
    expect(skill).toMatch(/\*\*One mechanism per candidate\*\*/);
    expect(skill).toMatch(/\*\*Copy a strong candidate, then change it\.\*\*/);
    expect(skill).toMatch(/\*\*No dataset-specific hints\.\*\*/);
    expect(skill).toMatch(/defineHarness/);
  });
});
