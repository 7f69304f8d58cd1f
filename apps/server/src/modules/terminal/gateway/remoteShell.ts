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
  channel.on('data', (b: Buffer) => shell.emit('data', b));
  channel.stderr.on('data', (b: Buffer) => shell.emit('data', b));
  channel.on('close', () => shell.emit('close', 'closed'));
  link.client.on('error', () => shell.emit('close', 'error'));
  return shell;
}
