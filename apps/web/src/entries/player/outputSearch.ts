import type { TimedEvent } from './timeline.ts';

/**
 * Search through a recording's text output: escape sequences are removed, the text of all
 * events is joined (a word split across two output chunks is still found) and each match maps
 * back to the event where it ends, i.e. the moment it was on screen. Case-insensitive.
 */
// CSI, OSC (ended by BEL or ST), other two-byte escapes, then remaining control characters but \n.
// eslint-disable-next-line no-control-regex -- stripping terminal control sequences is the point
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x00-\x09\x0b-\x1f\x7f]/g;

export function plainText(data: string): string {
  return data.replace(ESCAPES, '');
}

export class OutputIndex {
  private text = '';
  /** Text offset where each indexed event's text ends. */
  private ends: number[] = [];

  constructor(private readonly events: TimedEvent[]) {}

  private catchUp(): void {
    for (let i = this.ends.length; i < this.events.length; i++) {
      const e = this.events[i]!;
      if (e.kind === 'o') this.text += plainText(e.data).toLowerCase();
      this.ends.push(this.text.length);
    }
  }

  /** Indexes of the events at which each match of `term` is complete, in order (at most `max`). */
  find(term: string, max = 1000): number[] {
    this.catchUp();
    const needle = term.toLowerCase();
    if (!needle) return [];
    const hits: number[] = [];
    let at = this.text.indexOf(needle);
    let ev = 0;
    while (at >= 0 && hits.length < max) {
      const end = at + needle.length;
      while (ev < this.ends.length && this.ends[ev]! < end) ev++;
      if (hits[hits.length - 1] !== ev) hits.push(ev);
      at = this.text.indexOf(needle, at + 1);
    }
    return hits;
  }
}
