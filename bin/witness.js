#!/usr/bin/env node
// The `witness` command: runs the TypeScript CLI through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
await main(process.argv);
