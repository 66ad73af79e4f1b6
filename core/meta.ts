/** The vitest task-meta channel: each benchmark test stores its trajectory under `meta.witness`. */
import type { Trajectory } from './types.ts';

declare module '@vitest/runner' {
  interface TaskMeta {
    witness?: Trajectory;
  }
}

export const META_KEY = 'witness';
