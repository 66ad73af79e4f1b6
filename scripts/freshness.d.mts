/** Types of freshness.mjs (plain JS: the launcher loads it before anything is compiled). */
/** Null when dist/ was built after every source and asset changed; else why it is not current. */
export function staleness(root: string): string | null;
/** The file in dist/ whose modification time is the moment its build started, and whose text lists the build's inputs. */
export const STAMP: string;
