import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../core/sandbox/limits.ts';
import { phaseResult } from './phase-testing.ts';
import { encodeRequest, parseEvents, ReplyParser } from './protocol.ts';

describe('the worker wire format', () => {
  it('encodes a request as a hex length, the header, then the payloads in phase order', () => {
    const bytes = encodeRequest(7, [
      { name: 'a', kind: 'exec', payload: { source: 'print(1)' }, limits: DEFAULT_LIMITS, deadlineMs: 1000 },
      { name: 'b', kind: 'exec', payload: { source: 'é' }, limits: DEFAULT_LIMITS, deadlineMs: 2000, capture: true },
    ]);
    const length = parseInt(bytes.subarray(0, 8).toString('ascii'), 16);
    const header = JSON.parse(bytes.subarray(8, 8 + length).toString('utf8'));
    expect(header.id).toBe(7);
    expect(
      header.phases.map((p: { name: string; payload: number; capture: boolean }) => [p.name, p.payload, p.capture]),
    ).toEqual([
      ['a', Buffer.byteLength('{"source":"print(1)"}'), false],
      ['b', Buffer.byteLength('{"source":"é"}'), true],
    ]);
    expect(bytes.subarray(8 + length).toString('utf8')).toBe('{"source":"print(1)"}{"source":"é"}');
  });

  it('parses replies fed one byte at a time: ready, progress, envelope, outputs', () => {
    const outputs = ['{"event":"done"}\n', 'not json\n{"event":"x","n":1}\n'];
    // A phase as the envelope carries it: its events come after, in its outputs.
    const envelope = (name: string) => {
      const { events: _events, ...phase } = phaseResult({ name });
      return phase;
    };
    const stream = Buffer.from(
      '{"ready": true, "pid": 2}\nP0\nP1\n' +
        `${JSON.stringify({ id: 3, phases: [envelope('a'), envelope('b')], lengths: outputs.map((o) => Buffer.byteLength(o)) })}\n` +
        outputs.join(''),
    );
    const parser = new ReplyParser();
    const items = [...stream].flatMap((byte) => parser.push(Buffer.from([byte])));
    expect(items.map((i) => i.type)).toEqual(['ready', 'progress', 'progress', 'reply']);
    const reply = items[3] as { type: 'reply'; id: number; phases: { name: string; events: unknown[] }[] };
    expect(reply.id).toBe(3);
    expect(reply.phases[0]?.events).toEqual([{ event: 'done' }]);
    expect(reply.phases[1]?.events).toEqual([
      { event: 'garbled', text: 'not json' },
      { event: 'x', n: 1 },
    ]);
  });

  it('refuses a worker that did not start properly', () => {
    expect(() => new ReplyParser().push(Buffer.from('{"ready": false}\n'))).toThrow(/did not start/);
  });

  it('turns non-object lines into garbled events', () => {
    expect(parseEvents(Buffer.from('[1,2]\n{"no":"event"}\n\n'))).toEqual([
      { event: 'garbled', text: '[1,2]' },
      { event: 'garbled', text: '{"no":"event"}' },
    ]);
  });
});
