/** The bench command `witness optimize meta-harness` prints for its best harness: paths shown relative when below the working directory, quoted for the shell when needed. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leaderboardCommand } from './optimize-meta-harness.ts';

describe('leaderboardCommand', () => {
  it('names the suite and the harness next to zero-shot and hero-t, relative below the working directory', () => {
    expect(leaderboardCommand('nl-rx', join(process.cwd(), 'runs', 'i4-c1', 'harness.ts'))).toBe(
      'npx witness bench --suite nl-rx --strategies zero-shot,hero-t,harness:runs/i4-c1/harness.ts',
    );
  });

  it('keeps a path outside the working directory absolute, and quotes one the shell would split', () => {
    expect(leaderboardCommand('bird', '/elsewhere/c1/harness.ts')).toBe(
      'npx witness bench --suite bird --strategies zero-shot,hero-t,harness:/elsewhere/c1/harness.ts',
    );
    expect(leaderboardCommand('bird', "/my runs/it's/harness.ts")).toBe(
      "npx witness bench --suite bird --strategies zero-shot,hero-t,harness:'/my runs/it'\\''s/harness.ts'",
    );
  });
});
