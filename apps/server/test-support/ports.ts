import net from 'node:net';

/** Loopback ports for tests: one free now, and waiting for a server to listen on one. */

/** A TCP port of 127.0.0.1 free at the time of the call (nothing listens on it: a closed port too). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

/** Waits until 127.0.0.1:`port` accepts connections (5 s at most). */
export async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((r) =>
      net
        .connect(port, '127.0.0.1')
        .once('connect', function (this: net.Socket) {
          this.destroy();
          r(true);
        })
        .once('error', () => r(false)),
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}
