import { afterEach, describe, expect, it, vi } from 'vitest';
import { followTaskLog, taskLogSocketUrl } from './taskLogSocket.ts';

/** A stand-in for the browser's WebSocket that records what is sent and lets the test push frames. */
class FakeSocket {
  static last: FakeSocket;
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  push(frame: unknown) {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('the task-log socket', () => {
  it('uses ws or wss after the page', () => {
    expect(taskLogSocketUrl({ protocol: 'https:', host: 'bastion.example' })).toBe(
      'wss://bastion.example/ws/ops/tasks/log/',
    );
    expect(taskLogSocketUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe(
      'ws://127.0.0.1:8080/ws/ops/tasks/log/',
    );
  });

  it('asks for the task, writes its chunks, ignores other tasks and bad frames, and stops at the end', () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const h = { onMessage: vi.fn(), onEnd: vi.fn(), onError: vi.fn() };
    followTaskLog('t1', 'celery', h);
    const ws = FakeSocket.last;
    ws.onopen?.();
    expect(JSON.parse(ws.sent[0]!)).toEqual({ task: 't1', type: 'celery' });
    ws.push({ message: '.', task: 't1' });
    ws.push({ message: 'line\r\n', task: 't1' });
    ws.push({ message: 'other', task: 't2' });
    ws.push('not json');
    expect(h.onMessage.mock.calls.map((c) => c[0])).toEqual(['.', 'line\r\n']);
    ws.push({ event: 'end', task: 't1', message: '' });
    expect(h.onEnd).toHaveBeenCalledOnce();
    expect(ws.closed).toBe(true);
    ws.onerror?.();
    expect(h.onError).not.toHaveBeenCalled();
  });

  it('reports an error of an open stream, not one after it was closed', () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const h = { onMessage: vi.fn(), onEnd: vi.fn(), onError: vi.fn() };
    const stop = followTaskLog('t1', 'celery', h);
    FakeSocket.last.onerror?.();
    expect(h.onError).toHaveBeenCalledOnce();
    stop();
    FakeSocket.last.onerror?.();
    expect(h.onError).toHaveBeenCalledOnce();
  });
});
