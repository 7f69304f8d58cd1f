import { describe, expect, it } from 'vitest';
import { LineSplitter, parseLines, type CastEvent, type CastHeader } from './castStream.ts';
import { OutputIndex, plainText } from './outputSearch.ts';
import { clock, Timeline } from './timeline.ts';

describe('the replay timeline', () => {
  const events: CastEvent[] = [
    [0.5, 'o', 'a'],
    [1, 'o', 'b'],
    [61, 'o', 'c'], // a minute idle
    [62, 'o', 'd'],
  ];

  it('compresses idle stretches to the limit and maps real times both ways', () => {
    const tl = new Timeline(2);
    tl.add(events);
    expect(tl.events.map((e) => e.play)).toEqual([0.5, 1, 3, 4]);
    expect(tl.duration).toBe(4);
    expect(tl.playOf(61)).toBe(3);
    expect(tl.playOf(30)).toBe(3); // inside the idle stretch: its compressed end
    expect(tl.realOf(3.5)).toBe(61.5);
    expect(tl.indexAt(2.9)).toBe(1);
    expect(tl.indexAt(3)).toBe(2);
    expect(tl.indexAt(0.1)).toBe(-1);
  });

  it('recomputes when the limit changes; 0 turns compression off', () => {
    const tl = new Timeline(2);
    tl.add(events);
    tl.setIdleLimit(0);
    expect(tl.duration).toBe(62);
    tl.setIdleLimit(10);
    expect(tl.events.map((e) => e.play)).toEqual([0.5, 1, 11, 12]);
  });

  it('formats clocks', () => {
    expect(clock(5)).toBe('0:05');
    expect(clock(3723)).toBe('1:02:03');
  });
});

describe('reading a recording as it streams', () => {
  it('cuts lines across chunks and parses the header then events', () => {
    const split = new LineSplitter();
    const headers: CastHeader[] = [];
    const got: CastEvent[] = [];
    const sink = { header: (h: CastHeader) => headers.push(h), events: (b: CastEvent[]) => got.push(...b) };
    const state = { header: false };
    const text =
      '{"version":2,"width":80,"height":24,"timestamp":100}\n[0.1,"o","he"]\n[0.2,"o","llo"]\nnot json\n[0.3,"r","100x30"]';
    for (let i = 0; i < text.length; i += 7) parseLines(split.push(text.slice(i, i + 7)), sink, state);
    parseLines(split.end(), sink, state);
    expect(headers).toEqual([{ version: 2, width: 80, height: 24, timestamp: 100 }]);
    expect(got).toEqual([
      [0.1, 'o', 'he'],
      [0.2, 'o', 'llo'],
      [0.3, 'r', '100x30'],
    ]);
  });
});

describe('searching the output', () => {
  it('finds text across chunks and escape sequences, case-insensitive, at the event that completes it', () => {
    const tl = new Timeline(2);
    tl.add([
      [0, 'o', '\x1b[1;32mgh$\x1b[0m ls\r\n'],
      [1, 'o', 'Rea'],
      [2, 'o', 'dme.md\r\n\x1b]0;title\x07'],
      [3, 'o', 'readme again'],
    ]);
    const idx = new OutputIndex(tl.events);
    expect(idx.find('README')).toEqual([2, 3]);
    expect(idx.find('title')).toEqual([]);
    expect(idx.find('')).toEqual([]);
    expect(plainText('\x1b[31mred\x1b[0m')).toBe('red');
  });
});
