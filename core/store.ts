/**
 * The run store: every finished (task, strategy, trial) is written as it completes, one JSON file
 * per trajectory under `<storeDir>/<runId>/trajectories/`, atomically (temp file + rename), so an
 * interrupted run loses nothing it finished.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRAJECTORY_SCHEMA, type Trajectory } from './types.ts';

export class RunStore {
  readonly dir: string;

  constructor(storeDir: string, readonly runId: string) {
    if (!/^[\w.-]+$/.test(runId)) throw new Error(`run id "${runId}" may only contain letters, digits, '.', '_' and '-'`);
    this.dir = join(storeDir, runId);
  }

  /** File name of a trajectory: stable per (benchmark, model, task, strategy, trial). */
  static key(t: Pick<Trajectory, 'benchmark' | 'taskId' | 'strategy' | 'trial' | 'model'>): string {
    const raw = `${t.benchmark}__${t.model.name}__${t.taskId}__${t.strategy}__t${t.trial}`;
    return raw.replace(/[^\w.-]+/g, '_');
  }

  save(trajectory: Trajectory): string {
    const dir = join(this.dir, 'trajectories');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${RunStore.key(trajectory)}.json`);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(trajectory));
    renameSync(temp, file);
    return file;
  }

  /** Every stored trajectory of this run; unreadable files are reported by name, not skipped silently. */
  load(): { trajectories: Trajectory[]; problems: string[] } {
    const dir = join(this.dir, 'trajectories');
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    } catch {
      return { trajectories: [], problems: [] };
    }
    const trajectories: Trajectory[] = [];
    const problems: string[] = [];
    for (const name of names.sort()) {
      try {
        const value = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Trajectory;
        if (value.schema !== TRAJECTORY_SCHEMA) throw new Error(`not a trajectory (schema ${JSON.stringify(value.schema)})`);
        trajectories.push(value);
      } catch (error) {
        problems.push(`${join(dir, name)}: ${(error as Error).message}`);
      }
    }
    return { trajectories, problems };
  }
}

/** A fresh run id: UTC time plus a short random suffix, e.g. `20261130-001502-k3f9`. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}
