/**
 * The run's configuration inside a vitest worker. The global setup (core/run-config-setup.ts)
 * loads it once per run in the main process — from the vitest root, with the main process's
 * environment (the WITNESS_* variables `witness bench` or the user set) — and provides it to every
 * worker; a configuration that does not load is provided as its error, so only the files that ask
 * for it fail, with the same message. In a vitest project without that setup (a project of the
 * user's that lists only the reporter), the worker is the entry point and loads it itself, from its
 * working directory and environment. Outside vitest, callers load the configuration and pass it.
 */
import { inject } from 'vitest';
import { ConfigError, loadConfig, type LoadedConfig } from './config.ts';

/** What the global setup provides: the loaded configuration, or why it did not load. */
export type ProvidedRunConfig =
  { ok: true; loaded: LoadedConfig } | { ok: false; error: { configError: boolean; message: string } };

declare module 'vitest' {
  export interface ProvidedContext {
    /** The configuration of this vitest run, loaded once by core/run-config-setup.ts. */
    witnessRunConfig: ProvidedRunConfig;
  }
}

/** The configuration of this vitest run (call it inside a vitest worker); throws the error it failed to load with. */
export function runConfig(): LoadedConfig {
  const provided = providedRunConfig();
  if (!provided) return loadConfig();
  if (provided.ok) return provided.loaded;
  const { configError, message } = provided.error;
  throw configError ? new ConfigError(message) : new Error(message);
}

function providedRunConfig(): ProvidedRunConfig | undefined {
  try {
    return inject('witnessRunConfig');
  } catch (error) {
    throw new Error('runConfig() runs inside a vitest worker; outside vitest, load the configuration and pass it', {
      cause: error,
    });
  }
}
