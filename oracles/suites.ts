/**
 * The built-in suites, each as its oracle family declares it (oracles/<family>/suite.ts): the one
 * list of benchmarks. Adding a family is a folder and a line here.
 */
import type { SuiteDescriptor } from '../core/suite-descriptor.ts';
import { cypherBenchSuite } from './cypher/suite.ts';
import { bigCodeBenchSuite } from './python/bigcodebench/suite.ts';
import { dsCodeBenchSuite } from './python/dscodebench/suite.ts';
import { nlRxSuite } from './regex/suite.ts';
import { birdSuite } from './sql/suite.ts';

export const SUITES: readonly SuiteDescriptor[] = [
  birdSuite,
  bigCodeBenchSuite,
  dsCodeBenchSuite,
  nlRxSuite,
  cypherBenchSuite,
];

/** A suite by name; an unknown name is an error listing the known ones. */
export function suiteNamed(name: string): SuiteDescriptor {
  const suite = SUITES.find((s) => s.name === name);
  if (!suite)
    throw new Error(
      `unknown suite "${name}" (known: ${SUITES.map((s) => s.name)
        .sort()
        .join(', ')})`,
    );
  return suite;
}
