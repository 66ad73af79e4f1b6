/** vitest global setup: provides how many bench parts the run selected with `--project` (core/suite-parts.ts). */
import type { TestProject } from 'vitest/node';
import { isBenchPart } from './suite-parts.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** How many parts of the bench project this vitest run has selected. */
    witnessSuiteParts: number;
  }
}

/** Counts the selected bench parts in the root project; the projects see the root's provided values. */
export default function setup(project: TestProject): void {
  if (!project.isRootProject()) return;
  project.provide('witnessSuiteParts', project.vitest.projects.filter((p) => isBenchPart(p.name)).length);
}
