/**
 * The registry of probed inputs behind hardening witnesses (both Python oracles): remembers which
 * input each probe witness stands for, so that `extend` can add it to the task as an extra case.
 */
import { createHash } from 'node:crypto';
import type { PreparedTask } from '../../core/oracle.ts';
import type { Witness } from '../../core/types.ts';

/** A prepared task that carries extra cases `h01`, `h02`, … after its own. */
export interface ExtensiblePrepared<S> extends PreparedTask {
  extra: { id: string; spec: S }[];
}

/** A registry of probe inputs (`spec`s) by witness case id. */
export function probeRegistry<S>() {
  const specs = new Map<string, S>();
  return {
    register(spec: S): string {
      const id = `p-${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 12)}`;
      specs.set(id, spec);
      return id;
    },
    spec(id: string): S | undefined {
      return specs.get(id);
    },
    /** The task with these probe witnesses added as cases h01, h02, … (unknown ones are skipped). */
    extendWith<P extends ExtensiblePrepared<S>>(prepared: P, witnesses: readonly Witness[]): P {
      const extra = [...prepared.extra];
      for (const w of witnesses) {
        const spec = w.caseId ? specs.get(w.caseId) : undefined;
        if (spec === undefined || extra.some((e) => JSON.stringify(e.spec) === JSON.stringify(spec))) continue;
        extra.push({ id: `h${String(extra.length + 1).padStart(2, '0')}`, spec });
      }
      return {
        ...prepared,
        extra,
        caseIds: [...prepared.caseIds.filter((id) => !id.startsWith('h')), ...extra.map((e) => e.id)],
      };
    },
  };
}

export type ProbeRegistry<S> = ReturnType<typeof probeRegistry<S>>;
