import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { WITNESS_DIR, witnessPath } from './paths.ts';

describe('witnessPath', () => {
  it("puts Witness's own files under <root>/.witness, the folder every default of the config uses", () => {
    expect(WITNESS_DIR).toBe('.witness');
    expect(witnessPath('/project', 'runs')).toBe('/project/.witness/runs');
    expect(witnessPath('/project', 'hero', 'bird', 'learned.md')).toBe('/project/.witness/hero/bird/learned.md');
    const { config } = loadConfig('/project', {});
    expect([config.storeDir, config.cache.path, config.python.fullProfileDir]).toEqual([
      witnessPath('/project', 'runs'),
      witnessPath('/project', 'cache.sqlite'),
      join('/project', WITNESS_DIR, 'python-full'),
    ]);
  });
});
