/**
 * Types of sdk.mjs's pure text helpers for the built-in strategies, which format and parse as the
 * harness SDK does (plain JS so the sandboxed child loads it without TypeScript tooling). The whole
 * SDK's types are in ../sdk/witness-harness.d.ts.
 */
export { clipText, firstJsonObject, formatObservation } from 'witness-harness';
