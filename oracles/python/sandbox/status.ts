/** Whether the configured Python sandbox can run on this machine, and if not, why and how to fix it. */
import type { PythonSettings } from '../../../core/config-sections.ts';
import type { EngineStatus } from '../../../core/suite-descriptor.ts';
import { SandboxUnavailableError } from './backend.ts';
import { configuredSandbox, resolveBackend } from './select.ts';

/** The status of `python.sandbox` (auto = bwrap, else Docker). */
export async function pythonSandboxStatus(python: PythonSettings): Promise<EngineStatus> {
  const fix = 'Run `npm run setup` to install the system requirements.';
  try {
    const { backend: choice, interpreter } = configuredSandbox(python);
    const backend = await resolveBackend(choice, { interpreter });
    const status = await backend.status();
    return status.available
      ? { ok: true }
      : { ok: false, reason: `the ${backend.name} Python sandbox is not available: ${status.reason}\n${fix}` };
  } catch (error) {
    if (error instanceof SandboxUnavailableError) return { ok: false, reason: `${error.message}\n${fix}` };
    throw error;
  }
}
