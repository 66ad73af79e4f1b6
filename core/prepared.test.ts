import { describe, expect, it } from 'vitest';
import { regexOracle } from '../oracles/regex/oracle.ts';
import { preparedOnce } from './prepared.ts';
import type { Task } from './types.ts';

describe('preparedOnce', () => {
  it('prepares a task once per oracle, whoever asks, and separately for another oracle', async () => {
    const oracle = regexOracle();
    let calls = 0;
    const counted = { ...oracle, prepare: (task: Task) => (calls++, oracle.prepare(task)) };
    const task: Task = { id: '1', benchmark: 'b', description: 'd', gold: 'a+', context: { dialect: 'ecmascript' } };
    const [a, b] = await Promise.all([preparedOnce(counted, task), preparedOnce(counted, task)]);
    expect(a).toBe(b);
    expect(calls).toBe(1);
    await preparedOnce(counted, { ...task, id: '2' });
    expect(calls).toBe(2);
    const other = { ...oracle, prepare: (t: Task) => (calls++, oracle.prepare(t)) };
    await preparedOnce(other, task);
    expect(calls).toBe(3);
  });
});
