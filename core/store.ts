/**
 * The run store: every finished (task, strategy, trial) is appended as it completes to a JSON
 * Lines file under `<storeDir>/<runId>/trajectories/`, one file per writer (a benchmark in one
 * worker process: `<benchmark>.<pid>.<random>.jsonl`), so writers never share a file and a crash
 * (even kill -9) can only tear the last line of its own file, which readers skip with a note.
 * Stores written before JSON Lines (one `<key>.json` file per trajectory) are read too. A key
 * stored twice (a rerun) resolves to the later episode. Beside them: `benchmarks/<name>.json`,
 * the settings each benchmark ran with (a resume must use the same), and `spend/`, the ledger.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forEachLine, LineAppender, readSlice } from './jsonl.ts';
import { TRAJECTORY_SCHEMA, type Json, type OutcomeStatus, type Trajectory } from './types.ts';

function writeJsonAtomic(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(value));
  renameSync(temp, file);
}

/** Where a stored trajectory is: a file of the run's `trajectories/` folder and its byte range. */
export interface StoredAt {
  /** File name inside `<run>/trajectories/`. */
  file: string;
  offset: number;
  bytes: number;
}

/** What a scan of the store found besides the trajectories. */
export interface ScanReport {
  /** Unreadable files and lines, by file (and line); their episodes are missing. */
  problems: string[];
  /** Torn last lines of interrupted writes, skipped. */
  notes: string[];
}

/** One key of the store index: where its trajectory is, and the little a resume decides by. */
export interface StoreEntry {
  at: StoredAt;
  status: OutcomeStatus;
  startedAt: string;
}

function parseTrajectory(text: string): Trajectory {
  const value = JSON.parse(text) as Trajectory;
  if (value?.schema !== TRAJECTORY_SCHEMA)
    throw new Error(`not a trajectory (schema ${JSON.stringify(value?.schema)})`);
  return value;
}

export class RunStore {
  readonly dir: string;
  private appender: LineAppender | undefined;

  constructor(
    storeDir: string,
    readonly runId: string,
  ) {
    if (!/^[\w.-]+$/.test(runId))
      throw new Error(`run id "${runId}" may only contain letters, digits, '.', '_' and '-'`);
    this.dir = join(storeDir, runId);
  }

  /** Identity of a trajectory in the store: stable per (benchmark, model, task, strategy, trial). */
  static key(t: Pick<Trajectory, 'benchmark' | 'taskId' | 'strategy' | 'trial'> & { model: { name: string } }): string {
    const raw = `${t.benchmark}__${t.model.name}__${t.taskId}__${t.strategy}__t${t.trial}`;
    return raw.replace(/[^\w.-]+/g, '_');
  }

  /** Folder of the trajectory files. */
  get trajectoriesDir(): string {
    return join(this.dir, 'trajectories');
  }

  /** Appends a trajectory to this writer's JSON Lines file; returns where it is. */
  save(trajectory: Trajectory): StoredAt {
    if (!this.appender) {
      mkdirSync(this.trajectoriesDir, { recursive: true });
      const name = `${trajectory.benchmark.replace(/[^\w-]+/g, '_')}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.jsonl`;
      this.appender = new LineAppender(join(this.trajectoriesDir, name));
    }
    const { offset, bytes } = this.appender.append(trajectory);
    return { file: this.appender.file.slice(this.trajectoriesDir.length + 1), offset, bytes };
  }

  /** Reads one stored trajectory back. */
  read(at: StoredAt): Trajectory {
    const path = join(this.trajectoriesDir, at.file);
    try {
      return parseTrajectory(readSlice(path, at.offset, at.bytes));
    } catch (error) {
      throw new Error(`${path} at byte ${at.offset}: ${(error as Error).message}`);
    }
  }

  /**
   * Visits every stored trajectory, file by file (old one-file-per-trajectory files first), without
   * holding them; a key stored twice is visited twice (see `load` for which one counts).
   */
  scan(visit: (trajectory: Trajectory, at: StoredAt) => void): ScanReport {
    const report: ScanReport = { problems: [], notes: [] };
    let names: string[];
    try {
      names = readdirSync(this.trajectoriesDir);
    } catch {
      return report;
    }
    const legacy = names.filter((n) => n.endsWith('.json')).sort();
    for (const name of legacy) {
      const path = join(this.trajectoriesDir, name);
      try {
        const text = readFileSync(path, 'utf8');
        visit(parseTrajectory(text), { file: name, offset: 0, bytes: Buffer.byteLength(text) });
      } catch (error) {
        report.problems.push(`${path}: ${(error as Error).message}`);
      }
    }
    for (const name of names.filter((n) => n.endsWith('.jsonl')).sort()) {
      const path = join(this.trajectoriesDir, name);
      let line = 0;
      forEachLine(path, (text, offset, bytes, complete) => {
        line++;
        let trajectory: Trajectory;
        try {
          trajectory = parseTrajectory(text);
        } catch (error) {
          if (complete) report.problems.push(`${path}:${line}: ${(error as Error).message}`);
          else report.notes.push(`${path}:${line}: torn last line of an interrupted write ignored`);
          return;
        }
        visit(trajectory, { file: name, offset, bytes });
      });
    }
    return report;
  }

  /** Where each stored key's current trajectory is: the later one (by start time, then scan order) when a key is stored twice. */
  index(): { entries: Map<string, StoreEntry> } & ScanReport {
    const entries = new Map<string, StoreEntry>();
    const report = this.scan((t, at) => {
      const key = RunStore.key(t);
      const seen = entries.get(key);
      if (!seen || t.startedAt >= seen.startedAt)
        entries.set(key, { at, status: t.outcome.status, startedAt: t.startedAt });
    });
    return { entries, ...report };
  }

  /** Every stored trajectory of this run (one per key); unreadable files and lines are reported by name, not skipped silently. */
  load(): { trajectories: Trajectory[] } & ScanReport {
    const { entries, ...report } = this.index();
    const trajectories = [...entries.values()].map((e) => this.read(e.at));
    return { trajectories, ...report };
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
