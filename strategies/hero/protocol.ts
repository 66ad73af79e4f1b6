/**
 * The refiner's reply protocol: one JSON object per reply naming an action. Parsing is tolerant of
 * code fences and prose around the object, and of a revision whose program is given as a fenced
 * block instead of the `program` field.
 */
import { pickCodeBlock } from '../../core/extract.ts';
import { firstJsonObject } from '../harness/child/sdk.mjs';

export type RefinerAction =
  | { kind: 'execute' }
  | { kind: 'probe' }
  | { kind: 'retrieve' }
  | { kind: 'pick'; ids: string[] }
  | { kind: 'revise'; program: string; rationale: string }
  | { kind: 'keep'; rationale: string }
  | { kind: 'invalid'; problem: string };

export function parseAction(reply: string, language: string): RefinerAction {
  const json = firstJsonObject(reply);
  if (!json) return { kind: 'invalid', problem: 'no JSON object in the reply' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { kind: 'invalid', problem: `the JSON object does not parse: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null) return { kind: 'invalid', problem: 'not a JSON object' };
  const v = value as Record<string, unknown>;
  const rationale = typeof v.rationale === 'string' ? v.rationale : '';
  switch (v.action) {
    case 'execute':
    case 'probe':
    case 'retrieve':
      return { kind: v.action };
    case 'pick': {
      const ids = Array.isArray(v.ids) ? v.ids.map(String) : [];
      return { kind: 'pick', ids };
    }
    case 'keep':
      return { kind: 'keep', rationale };
    case 'revise': {
      const fenced = pickCodeBlock(reply.replace(json, ''), [language]);
      const program = typeof v.program === 'string' && v.program.trim() ? v.program : fenced?.body;
      if (!program || !program.trim())
        return { kind: 'invalid', problem: 'a revise action needs the full revised program' };
      return { kind: 'revise', program: program.trim(), rationale };
    }
    default:
      return { kind: 'invalid', problem: `unknown action ${JSON.stringify(v.action)}` };
  }
}
