/** Where the proposer's skill file lives. */
import { packagePath } from '../../../core/package-root.ts';

/** The built-in skill file (prompts/meta-harness/proposer.md): instructions, SDK summary, action protocol. */
export const DEFAULT_SKILL_FILE = packagePath('prompts', 'meta-harness', 'proposer.md');
