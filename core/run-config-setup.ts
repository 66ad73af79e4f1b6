/** vitest global setup: loads the run's configuration once and provides it to the workers (core/run-config.ts). */
import type { TestProject } from 'vitest/node';
import { ConfigError, loadConfig } from './config.ts';
import type { ProvidedRunConfig } from './run-config.ts';

/** Loads the configuration from the vitest root with this (main) process's environment, in the root project only. */
export default function setup(project: TestProject): void {
  if (!project.isRootProject()) return;
  project.provide('witnessRunConfig', loadedOrError(project.vitest.config.root));
}

function loadedOrError(root: string): ProvidedRunConfig {
  try {
    return { ok: true, loaded: loadConfig(root, process.env) };
  } catch (error) {
    // Provided, not thrown: a run whose configuration is broken still runs the files that need none.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { configError: error instanceof ConfigError, message } };
  }
}
