/** Where the proposer's skill file lives. */
import { fileURLToPath } from 'node:url';

/** The built-in skill file (prompts/meta-harness/proposer.md): instructions, SDK summary, action protocol. */
export const DEFAULT_SKILL_FILE = fileURLToPath(new URL('../../../prompts/meta-harness/proposer.md', import.meta.url));
