import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confine, ConfinementError, resolveInside } from './paths-inside.ts';

let base: string;
let root: string;
let outside: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'witness-confine-'));
  root = join(base, 'store');
  outside = join(base, 'secret');
  mkdirSync(join(root, 'candidates', 'c1'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'key.txt'), 'secret');
  writeFileSync(join(root, 'candidates', 'c1', 'harness.ts'), '');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('confine', () => {
  it('resolves relative and absolute paths inside the root, also files that do not exist yet', () => {
    expect(confine(root, 'candidates/c1/harness.ts')).toBe(join(root, 'candidates', 'c1', 'harness.ts'));
    expect(confine(root, join(root, 'candidates'))).toBe(join(root, 'candidates'));
    expect(confine(root, 'candidates/new/a/b.ts')).toBe(join(root, 'candidates', 'new', 'a', 'b.ts'));
    expect(confine(root, '.')).toBe(root);
    expect(confine(root, 'candidates/../candidates/c1')).toBe(join(root, 'candidates', 'c1'));
  });

  it('refuses traversal out of the root', () => {
    for (const path of [
      '..',
      '../secret/key.txt',
      'candidates/../../secret',
      join(outside, 'key.txt'),
      '/etc/passwd',
    ]) {
      expect(() => confine(root, path)).toThrow(ConfinementError);
      expect(() => confine(root, path)).toThrow(/is outside the folder "store"/);
    }
    expect(() => confine(root, 'a\0b')).toThrow(/NUL/);
  });

  it('refuses symbolic links that lead outside: to a file, to a folder on the way, and dangling ones', () => {
    symlinkSync(join(outside, 'key.txt'), join(root, 'candidates', 'c1', 'link.txt'));
    symlinkSync(outside, join(root, 'candidates', 'escape'));
    symlinkSync(join(outside, 'not-yet.txt'), join(root, 'candidates', 'c1', 'dangling.txt'));
    for (const path of [
      'candidates/c1/link.txt',
      'candidates/escape/key.txt',
      'candidates/escape/new-file.ts',
      'candidates/c1/dangling.txt',
    ]) {
      expect(() => confine(root, path)).toThrow(/leads outside the folder "store" through a symbolic link/);
    }
  });

  it('allows a symbolic link that stays inside the root, and a root that is itself reached through a link', () => {
    symlinkSync(join(root, 'candidates', 'c1'), join(root, 'alias'));
    expect(confine(root, 'alias/harness.ts')).toBe(join(root, 'alias', 'harness.ts'));
    const linkedRoot = join(base, 'linked-store');
    symlinkSync(root, linkedRoot);
    expect(confine(linkedRoot, 'candidates/c1/harness.ts')).toBe(join(linkedRoot, 'candidates', 'c1', 'harness.ts'));
  });
});

describe('resolveInside (paths built from dataset text)', () => {
  it('joins plain names inside the folder, also through a link that stays inside or a linked folder itself', () => {
    mkdirSync(join(root, 'shop'));
    writeFileSync(join(root, 'shop', 'shop.sqlite'), '');
    expect(resolveInside(root, 'shop', 'shop.sqlite')).toEqual({ path: join(root, 'shop', 'shop.sqlite') });
    expect(resolveInside(root, 'missing', 'missing.sqlite')).toEqual({
      path: join(root, 'missing', 'missing.sqlite'),
    });
    symlinkSync(join(root, 'shop'), join(root, 'alias'));
    expect(resolveInside(root, 'alias', 'shop.sqlite')).toEqual({ path: join(root, 'alias', 'shop.sqlite') });
    const linkedRoot = join(base, 'linked-store');
    symlinkSync(root, linkedRoot);
    expect(resolveInside(linkedRoot, 'shop', 'shop.sqlite')).toEqual({
      path: join(linkedRoot, 'shop', 'shop.sqlite'),
    });
  });

  it('refuses text that is not one plain name: traversal, absolute paths, separators, NUL, empty', () => {
    const cases: [string, RegExp][] = [
      ['../../outside/outside', /path separator/],
      ['..', /names a folder/],
      ['.', /names a folder/],
      [join(outside, 'key'), /path separator/],
      ['a\\b', /path separator/],
      ['a\0b', /NUL/],
      ['', /empty/],
    ];
    for (const [text, why] of cases) {
      const inside = resolveInside(root, text, `${text}.sqlite`);
      expect('problem' in inside && inside.problem, JSON.stringify(text)).toMatch(why);
      expect('problem' in inside && inside.problem).toContain(JSON.stringify(text));
    }
  });

  it('refuses a name that leads outside through a symbolic link: a linked file, a linked folder, a dangling link', () => {
    writeFileSync(join(outside, 'outside.sqlite'), '');
    mkdirSync(join(root, 'file-link'));
    symlinkSync(join(outside, 'outside.sqlite'), join(root, 'file-link', 'file-link.sqlite'));
    symlinkSync(outside, join(root, 'folder-link'));
    symlinkSync(join(outside, 'later'), join(root, 'dangling'));
    for (const name of ['file-link', 'folder-link', 'dangling']) {
      const inside = resolveInside(root, name, `${name}.sqlite`);
      expect('problem' in inside && inside.problem, name).toMatch(
        /leads outside the folder "store" through a symbolic link/,
      );
    }
  });
});
