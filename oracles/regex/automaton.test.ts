import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Words } from 'refa';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/random.ts';
import { printEcmascript, type RegexNode } from './ast.ts';
import { dfaTable, tableAccepts, toDfa } from './automaton.ts';
import { parseBrics } from './brics.ts';
import { compileRegex } from './compile.ts';
import { RegexTooComplexError } from './errors.ts';
import { sampleLanguage } from './sample.ts';
import { findNlRxTurk, NLRX_TURK_SETTING } from './loader.ts';
import { runConfig } from '../../core/run-config.ts';

const TURK = findNlRxTurk(runConfig().config.suites['nl-rx'].data);
const TARG = TURK ? join(TURK, 'targ.txt') : NLRX_TURK_SETTING;
const targLines = existsSync(TARG) ? readFileSync(TARG, 'utf8').split('\n') : null;
if (!targLines) console.warn(`NL-RX-Turk targ.txt not found at ${TARG}: its tests are skipped`);

describe('toDfa', () => {
  it('builds minimal DFAs', () => {
    expect(toDfa(parseBrics('.*dog.*')).countNodes()).toBe(4);
    expect(toDfa(parseBrics('(.*dog.*)&(.*cat.*)')).countNodes()).toBe(12);
  });

  it('quantifies intersections correctly (refa NFA.quantify mishandles DFA-made NFAs; we use ENFA)', () => {
    const dfa = toDfa(parseBrics('(.*(.)&([0-9]).*){2}'));
    expect(dfa.test(Words.fromStringToUTF16('0A0'))).toBe(true);
    expect(dfa.test(Words.fromStringToUTF16('00'))).toBe(true);
    expect(dfa.test(Words.fromStringToUTF16('0A'))).toBe(false);
  });

  it('throws RegexTooComplexError past 20,000 DFA nodes, even for brics', () => {
    expect(() => toDfa(parseBrics('.*a.{20}'))).toThrow(RegexTooComplexError);
    expect(() => compileRegex('.*a.{20}', 'brics')).toThrow(/too large/);
  });
});

describe('DFA table matcher', () => {
  it('agrees with refa on ASCII, non-ASCII and surrogate inputs', () => {
    const rng = new Rng(3);
    const sources = ['.*dog.*', '[^a-z]+', '~(.*[0-9].*)', '[\u00e9-\u00ff]*x', '(\ud83d\ude00|.)+', '#', '()', '@'];
    const alphabet = [
      'a',
      'd',
      'o',
      'g',
      '1',
      'x',
      'Z',
      '\u00e9',
      '\u00ff',
      '\u0100',
      '\ud83d',
      '\ude00',
      '\n',
      '\uffff',
    ];
    for (const source of sources) {
      const dfa = toDfa(parseBrics(source));
      const table = dfaTable(dfa);
      for (let i = 0; i < 300; i++) {
        const input = Array.from({ length: rng.int(8) }, () => rng.pick(alphabet)).join('');
        expect(tableAccepts(table, input), `${source} on ${JSON.stringify(input)}`).toBe(
          dfa.test(Words.fromStringToUTF16(input)),
        );
      }
    }
  });

  it('has no states for the empty language and rejects everything', () => {
    const table = dfaTable(toDfa(parseBrics('ab&cd')));
    expect(table.states).toBe(0);
    expect(tableAccepts(table, '')).toBe(false);
    expect(tableAccepts(table, 'ab')).toBe(false);
  });
});

describe.skipIf(!targLines)('toDfa over NL-RX-Turk targ.txt', () => {
  it('agrees with native RegExp on members and near-misses of every plain line (independent of refa)', () => {
    const rng = new Rng(7);
    const failures: string[] = [];
    for (const line of targLines ?? []) {
      if (/[&~]/.test(line)) continue;
      const gold = compileRegex(line, 'brics');
      const native = new RegExp(`^(?:${printEcmascript(gold.node as RegexNode)})$`, 's');
      const members = sampleLanguage(gold, rng, 4, { maxLength: 16 });
      const nearMisses = members.map((m) =>
        m.length > 0 && rng.chance(0.5) ? m.slice(1) : `${m}${rng.pick(['a', 'Z', '5', ' '])}`,
      );
      for (const input of [...members, ...nearMisses, '', 'dog', 'a1']) {
        if (gold.test?.(input) !== native.test(input)) failures.push(`${line} on ${JSON.stringify(input)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
