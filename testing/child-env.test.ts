import { describe, expect, it } from 'vitest';
import { DATA_VARIABLES, withoutSuiteData } from './child-env.ts';
import { SUITE_DATA_ENV } from '../core/config-sections.ts';

describe('withoutSuiteData', () => {
  it("drops every suite's data variable, the older NLRX_TURK_DIR and WITNESS_SPLIT, keeps the rest, then applies the extras", () => {
    const parent = Object.fromEntries(
      [...DATA_VARIABLES, 'PATH', 'WITNESS_MODEL'].map((name) => [name, `set-${name}`]),
    );
    const child = withoutSuiteData(parent, { WITNESS_BIRD_DATA: 'on purpose' });
    expect(child).toEqual({ PATH: 'set-PATH', WITNESS_MODEL: 'set-WITNESS_MODEL', WITNESS_BIRD_DATA: 'on purpose' });
    expect(DATA_VARIABLES).toEqual(
      expect.arrayContaining([...Object.values(SUITE_DATA_ENV), 'NLRX_TURK_DIR', 'WITNESS_SPLIT']),
    );
    expect(parent.WITNESS_NLRX_DATA).toBe('set-WITNESS_NLRX_DATA');
  });
});
