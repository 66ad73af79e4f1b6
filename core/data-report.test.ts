import { describe, expect, it } from 'vitest';
import { brokenLineFindings, dataReport } from './data-report.ts';

const issues = (n: number) => Array.from({ length: n }, (_, i) => ({ item: `line ${i + 1}`, message: 'not JSON' }));

describe('data reports', () => {
  it('list every broken line up to 50, then count the rest', () => {
    expect(brokenLineFindings('tasks.jsonl', issues(2))).toEqual([
      { level: 'error', path: 'tasks.jsonl', item: 'line 1', message: 'not JSON' },
      { level: 'error', path: 'tasks.jsonl', item: 'line 2', message: 'not JSON' },
    ]);
    expect(brokenLineFindings('tasks.jsonl', issues(50))).toHaveLength(50);
    const many = brokenLineFindings('tasks.jsonl', issues(53));
    expect(many).toHaveLength(51);
    expect(many.at(-2)?.item).toBe('line 50');
    expect(many.at(-1)).toEqual({ level: 'error', path: 'tasks.jsonl', message: '… and 3 more broken lines' });
  });

  it('are ok exactly when no finding is an error', () => {
    const source = { name: 'x', url: 'https://example.org' };
    const report = (level: 'error' | 'warning' | 'info') =>
      dataReport({ suite: 's', data: 'd', counts: {}, findings: [{ level, message: 'm' }], source }).ok;
    expect([report('error'), report('warning'), report('info')]).toEqual([false, true, true]);
  });
});
