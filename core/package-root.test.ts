import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packagePath } from './package-root.ts';

describe('the package root', () => {
  it("is the folder of Witness's package.json, prompts and fixtures when running from the sources", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string };
    expect(manifest.name).toBe('witness');
    expect(existsSync(packagePath('prompts', 'nl-rx.md'))).toBe(true);
    expect(packagePath('fixtures', 'bird')).toBe(join(PACKAGE_ROOT, 'fixtures', 'bird'));
  });
});
