/** The one list of suites: every configured suite has a descriptor, and each descriptor works without an engine. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.ts';
import { SUITE_NAMES } from '../core/config-sections.ts';
import { SUITES, suiteNamed } from './suites.ts';

const { config } = loadConfig(process.cwd(), {});

describe('the suite descriptors', () => {
  it('are exactly the suites the configuration knows, once each', () => {
    expect(SUITES.map((s) => s.name).sort()).toEqual([...SUITE_NAMES].sort());
  });

  it('find each fixture set and its seed prompt, with no engine started', async () => {
    for (const suite of SUITES) {
      expect(existsSync(suite.prompt), suite.name).toBe(true);
      const loaded = await suite.tasks(config);
      expect(loaded.tasks.length, suite.name).toBeGreaterThan(0);
      expect(loaded.issues, suite.name).toEqual([]);
    }
  });

  it('check their own fixtures as data in the official layout', async () => {
    const fixtures: Record<string, string> = {
      bird: 'fixtures/bird',
      'nl-rx': 'fixtures/nl-rx',
      cypherbench: 'fixtures/cypherbench',
      bigcodebench: 'fixtures/bigcodebench/bigcodebench.jsonl',
      dscodebench: 'fixtures/dscodebench/dscodebench.jsonl',
    };
    for (const suite of SUITES) {
      const report = await suite.checkData(fixtures[suite.name]!);
      expect(report.suite, suite.name).toBe(suite.name);
      expect(
        report.findings.filter((f) => f.level === 'error'),
        suite.name,
      ).toEqual([]);
    }
  });

  it('an unknown name lists the known ones', () => {
    expect(() => suiteNamed('spider')).toThrow(
      'unknown suite "spider" (known: bigcodebench, bird, cypherbench, dscodebench, nl-rx)',
    );
  });
});
