/** `witness config` prints the resolved configuration, with the Neo4j password redacted. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/witness.js', import.meta.url));

describe('witness config', () => {
  it('prints the sections with their sources applied and never the Neo4j password', () => {
    const dir = mkdtempSync(join(tmpdir(), 'witness-config-cmd-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NEO4J_USERNAME: 'neo4j',
      NEO4J_PASSWORD: 'hunter2-secret',
      WITNESS_VES_ITERATIONS: '7',
      NO_COLOR: '1',
    };
    const run = spawnSync(process.execPath, [bin, 'config'], { cwd: dir, encoding: 'utf8', env, timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('hunter2-secret');
    const printed = JSON.parse(run.stdout) as {
      config: { neo4j: { username: string; password: string }; suites: { bird: { vesIterations: number } } };
    };
    expect(printed.config.neo4j).toMatchObject({ username: 'neo4j', password: '[redacted]' });
    expect(printed.config.suites.bird.vesIterations).toBe(7);
  });
});
