/**
 * Staged job folders outlive nothing: a host killed with SIGKILL during an episode takes its
 * sandbox with it but leaves its folder, and the next host that stages a job in the same temporary
 * folder removes it — and only the folders of hosts that are gone.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { processesWith, waitFor } from '../../testing/processes/scan.ts';
import { stageJob } from './job-folder.ts';

const hostScript = fileURLToPath(new URL('../../testing/harness/orphan-host.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-leftovers-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const staged = (pid: number) => readdirSync(dir).filter((name) => name.startsWith(`witness-harness-${pid}-`));

describe('the staged folder of a killed host', () => {
  it('stays behind the SIGKILL, without its sandbox, and the next host to stage a job removes it', async () => {
    const host = spawn(process.execPath, ['--import', 'tsx', hostScript, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    let stderr = '';
    host.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const saved = process.env.TMPDIR;
    try {
      const pid = host.pid as number;
      const sandbox = () => processesWith(`${dir}/witness-harness-${pid}-`);
      expect(await waitFor(sandbox, (pids) => pids.length > 0, 20_000), stderr.slice(-2000)).not.toEqual([]);
      host.kill('SIGKILL');
      await new Promise((resolve) => host.once('exit', resolve));
      // bwrap dies with its parent: the sandbox goes, the folder stays.
      expect(await waitFor(sandbox, (pids) => pids.length === 0, 5000)).toEqual([]);
      expect(staged(pid)).toHaveLength(1);
      // Folders of hosts that still run: another process's, and this one's.
      const live = [`witness-harness-${sleeper.pid}-aaaaaa`, `witness-harness-${process.pid}-bbbbbb`];
      for (const name of live) mkdirSync(join(dir, name));

      process.env.TMPDIR = dir;
      const next = stageJob('export default null;');
      expect(staged(pid)).toEqual([]);
      for (const name of live) expect(existsSync(join(dir, name))).toBe(true);
      next.remove();
      expect(existsSync(next.root)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      host.kill('SIGKILL');
      sleeper.kill('SIGKILL');
    }
  }, 60_000);
});
