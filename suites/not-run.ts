/**
 * A suite whose engine is missing on this machine (no Neo4j, no Python sandbox) is reported as not
 * run, with the reason and how to fix it, and the other suites run. In CI the oracle's own tests
 * fail instead, so a missing engine never passes silently there.
 */
import { describe, it } from 'vitest';
import { processLoadedConfig, type PythonSettings } from '../core/config.ts';
import { resolveBackend } from '../oracles/python/sandbox/select.ts';
import { SandboxUnavailableError } from '../oracles/python/sandbox/backend.ts';

export function declareNotRun(name: string, reason: string): void {
  console.warn(`${name}: not run.\n${reason}`);
  describe(name, () => {
    it.skip(`not run: ${reason
      .split('\n')
      .map((l) => l.trim())
      .join(' ')}`, () => {});
  });
}

/** Whether the Python sandbox can run here (the configured `python.sandbox`: auto = bwrap, else Docker). */
export async function pythonSandboxStatus(
  python: PythonSettings = processLoadedConfig().config.python,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const fix = 'Run `npm run setup` to install the system requirements.';
  try {
    const backend = await resolveBackend(python.sandbox);
    const status = await backend.status();
    return status.available
      ? { ok: true }
      : { ok: false, reason: `the ${backend.name} Python sandbox is not available: ${status.reason}\n${fix}` };
  } catch (error) {
    if (error instanceof SandboxUnavailableError) return { ok: false, reason: `${error.message}\n${fix}` };
    throw error;
  }
}
