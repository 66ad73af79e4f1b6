/**
 * Full trajectories for the reports. Task meta carries a compact copy of each trajectory and where
 * the full one is in the run store (core/meta.ts); the reports that show texts (results.json, the
 * report page's trajectories) read the full one back, one at a time. The store is looked for where
 * the worker wrote it, then in each further store folder given (a CI job that downloaded the
 * shards' stores); when it is in none, the compact copy stands in and the report says how many.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readSlice } from '../core/jsonl.ts';
import type { StoredRef } from '../core/meta.ts';
import { RunStore } from '../core/store.ts';
import type { Trajectory } from '../core/types.ts';

export class FullTrajectories {
  private readonly refs = new Map<Trajectory, StoredRef>();
  private readonly found = new Map<string, string | null>();
  /** Trajectories whose full form was not found (their compact copy was used). */
  missing = 0;

  constructor(private readonly storeDirs: readonly string[] = []) {}

  /** Remembers where the full form of a compact trajectory is. */
  remember(compact: Trajectory, ref: StoredRef): void {
    this.refs.set(compact, ref);
  }

  /** The full trajectory: read from the store when `t` is a compact copy with a known place, else `t` itself. */
  readonly full = (t: Trajectory): Trajectory => {
    const ref = this.refs.get(t);
    if (!ref) return t;
    const path = this.locate(ref);
    if (path !== null) {
      try {
        const value = JSON.parse(readSlice(path, ref.offset, ref.bytes)) as Trajectory;
        if (value.runId === t.runId && RunStore.key(value) === RunStore.key(t)) return value;
      } catch {
        // A store that changed since the run (or another run's file): fall back to the compact copy.
      }
    }
    this.missing++;
    return t;
  };

  /** A note for the reports when some full trajectories were not found, else null. */
  note(): string | null {
    if (this.missing === 0) return null;
    return `${this.missing} ${this.missing === 1 ? 'trajectory' : 'trajectories'} shown without texts (prompts, replies, witnesses): not found in the run store (${[...new Set(this.storeDirs)].join(', ') || 'where the workers wrote it'}); pass the store folder of each shard (WITNESS_STORE, or witness report --store)`;
  }

  private locate(ref: StoredRef): string | null {
    const id = `${ref.runId}/${ref.file}`;
    const cached = this.found.get(id);
    if (cached !== undefined) return cached;
    let path: string | null = null;
    // File names come from task meta, possibly from another machine: never a path outside the store.
    if (!/^[\w.-]+$/.test(ref.file) || !/^[\w.-]+$/.test(ref.runId)) {
      this.found.set(id, null);
      return null;
    }
    for (const dir of [ref.storeDir, ...this.storeDirs]) {
      const candidate = join(dir, ref.runId, 'trajectories', ref.file);
      if (existsSync(candidate)) {
        path = candidate;
        break;
      }
    }
    this.found.set(id, path);
    return path;
  }
}
