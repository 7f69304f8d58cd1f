import { EventEmitter } from 'node:events';
import type { ClientChannel } from 'ssh2';
import type { SshLink } from './sshConnect.ts';

/**
 * The remote end of a gateway session, whatever carries it: an ssh2 shell channel (`sshShell`), a
 * Kubernetes container's exec stream (`../k8s/k8sExec.ts`). The session writes the user's input,
 * reads the terminal's output from `data` events (stdout and stderr alike, as Buffers), pauses it
 * while the page is behind, and passes window sizes on. `close` says the remote end is gone:
 * `error` when the connection broke rather than the shell ending.
 */
export interface RemoteShell extends EventEmitter<{ data: [Buffer]; close: [reason: 'closed' | 'error'] }> {
  write(text: string): void;
  pause(): void;
  resume(): void;
  resize(cols: number, rows: number): void;
  /** Ends the remote shell and its connection. */
  end(): void;
}

/**
 * What a remote end says before the session listens (the first prompt; a failure and the close
 * after it can come in the same turn) waits until the session listens for `close`, which it does
 * right after `data`: answers the function that delivers an event now or then.
 */
export function holdUntilListened(shell: EventEmitter): (deliver: () => void) => void {
  let queue: (() => void)[] | undefined = [];
  shell.on('newListener', (event: string | symbol) => {
    if (event !== 'close' || !queue) return;
    const waiting = queue;
    queue = undefined;
    queueMicrotask(() => waiting.forEach((f) => f()));
  });
  return (f) => (queue ? queue.push(f) : f());
}

/** An ssh2 shell channel (and its connection, through the domain gateway) as a RemoteShell. */
export function sshShell(link: SshLink, channel: ClientChannel): RemoteShell {
  const shell = Object.assign(new EventEmitter<{ data: [Buffer]; close: ['closed' | 'error'] }>(), {
    write: (text: string) => void channel.write(text),
    pause: () => void channel.pause(),
    resume: () => void channel.resume(),
    resize: (cols: number, rows: number) => void channel.setWindow(rows, cols, 0, 0),
    end: () => {
      channel.close();
      link.end();
    },
  });
  const deliver = holdUntilListened(shell);
  channel.on('data', (b: Buffer) => deliver(() => shell.emit('data', b)));
  channel.stderr.on('data', (b: Buffer) => deliver(() => shell.emit('data', b)));
  channel.on('close', () => deliver(() => shell.emit('close', 'closed')));
  link.client.on('error', () => deliver(() => shell.emit('close', 'error')));
  return shell;
}
