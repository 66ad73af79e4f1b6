/** The iteration's briefing for the agent and for an external command. */
import { describe, expect, it } from 'vitest';
import { briefing, observationMessage } from './briefing.ts';

const base = { iteration: 3, candidateIds: ['c3-a', 'c3-b'], reportPath: 'proposer/3/report.md' };

describe('briefing', () => {
  it('tells the agent what to write, where, the report first, and its steps', () => {
    const text = briefing({ ...base, maxSteps: 40, previousReport: 'reports/iteration-2.md' });
    expect(text).toMatch(/^Iteration 3\./);
    expect(text).toMatch(/the last iteration's short report is reports\/iteration-2\.md/);
    expect(text).toMatch(/1\. First write your report on the last iteration's results to proposer\/3\/report\.md/);
    expect(text).toMatch(/2 new candidates, one mechanism each/);
    expect(text).toMatch(/- candidates\/c3-b\/harness\.ts and candidates\/c3-b\/proposal\.json/);
    expect(text).toMatch(/You have 40 steps/);
    expect(text).toMatch(/\{"action":"done"\}/);
  });

  it('tells a command where its instructions are, without the action protocol', () => {
    const text = briefing({ ...base, skillFile: 'skills/proposer.md', previousReport: null });
    expect(text).not.toMatch(/short report is/);
    expect(text).not.toMatch(/action/);
    expect(text).toMatch(/Stop when all of them are written/);
    expect(text).toMatch(/Your instructions, the harness SDK and the rules for candidates: skills\/proposer\.md/);
  });

  it('warns when few steps are left', () => {
    expect(observationMessage(2, 40, 'ok')).toBe('Observation (step 2 of 40):\nok');
    expect(observationMessage(37, 40, 'ok')).toMatch(/3 steps left/);
    expect(observationMessage(40, 40, 'ok')).toBe('Observation (step 40 of 40):\nok');
  });
});
