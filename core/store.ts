/**
 * The run store: every finished (task, strategy, trial) is written as it completes, one JSON file
 * per trajectory under `<storeDir>/<runId>/trajectories/`, atomically (temp file + rename), so an
 * interrupted run loses nothing it finished. Beside them: `benchmarks/<name>.json`, the settings
 * each benchmark ran with (a resume must use the same), and `spend/`, the budget ledger.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRAJECTORY_SCHEMA, type Json, type Trajectory } from './types.ts';

function writeJsonAtomic(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(value));
  renameSync(temp, file);
}

export class RunStore {
  readonly dir: string;

  constructor(
    storeDir: string,
    readonly runId: string,
  ) {
    if (!/^[\w.-]+$/.test(runId))
      throw new Error(`run id "${runId}" may only contain letters, digits, '.', '_' and '-'`);
    this.dir = join(storeDir, runId);
  }

  /** File name of a trajectory: stable per (benchmark, model, task, strategy, trial). */
  static key(t: Pick<Trajectory, 'benchmark' | 'taskId' | 'strategy' | 'trial'> & { model: { name: string } }): string {
    const raw = `${t.benchmark}__${t.model.name}__${t.taskId}__${t.strategy}__t${t.trial}`;
    return raw.replace(/[^\w.-]+/g, '_');
  }

  save(trajectory: Trajectory): string {
    const dir = join(this.dir, 'trajectories');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${RunStore.key(trajectory)}.json`);
    writeJsonAtomic(file, trajectory);
    return file;
  }

  /** True when this run has been started before (its folder exists). */
  exists(): boolean {
    return existsSync(this.dir);
  }

  /** Folder of the run's spend ledger (see core/budget.ts). */
  get spendDir(): string {
    return join(this.dir, 'spend');
  }

  /** The settings a benchmark of this run was started with, or undefined when it was not started yet. */
  readSettings(benchmark: string): Record<string, Json> | undefined {
    const file = this.settingsFile(benchmark);
    if (!existsSync(file)) return undefined;
    try {
      const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
      return value as Record<string, Json>;
    } catch (error) {
      throw new Error(`${file}: unreadable run settings: ${(error as Error).message}`);
    }
  }

  /** Records the settings a benchmark of this run runs with. */
  writeSettings(benchmark: string, settings: Record<string, Json>): void {
    mkdirSync(join(this.dir, 'benchmarks'), { recursive: true });
    writeJsonAtomic(this.settingsFile(benchmark), settings);
  }

  private settingsFile(benchmark: string): string {
    return join(this.dir, 'benchmarks', `${benchmark.replace(/[^\w.-]+/g, '_')}.json`);
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
        if (value.schema !== TRAJECTORY_SCHEMA)
          throw new Error(`not a trajectory (schema ${JSON.stringify(value.schema)})`);
        trajectories.push(value);
      } catch (error) {
        problems.push(`${join(dir, name)}: ${(error as Error).message}`);
      }
    }
    return { trajectories, problems };
  }
}

/** The most recently modified run in a store folder, or undefined when it holds none. */
export function latestRunId(storeDir: string): string | undefined {
  let best: { id: string; time: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(storeDir);
  } catch {
    return undefined;
  }
  for (const id of names) {
    const path = join(storeDir, id);
    if (!statSync(path).isDirectory()) continue;
    const traj = join(path, 'trajectories');
    const time = (existsSync(traj) ? statSync(traj) : statSync(path)).mtimeMs;
    if (!best || time > best.time) best = { id, time };
  }
  return best?.id;
}

/** A fresh run id: UTC time plus a short random suffix, e.g. `20261130-001502-k3f9`. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}
