import net from 'node:net';

/**
 * A TCP proxy on loopback that delays every chunk coming back from the server by `delayMs` (order
 * kept), as a far-away or loaded asset does: the gateway's keys reach the server at once, their echo
 * and everything else the server sends arrive `delayMs` later. Listens on a free port; `close()`
 * ends it and its connections.
 */
export interface DelayProxy {
  port: number;
  /**
   * A hiccup: the next chunks from the server get these extra delays (ms), one each, in order
   * (the chunks after them still wait for them: order is kept).
   */
  hiccup(extraMs: number[]): void;
  close(): Promise<void>;
}

export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>();
  const extra: number[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    // Each chunk is due no sooner than the one before it: chunks keep their order.
    let lastDue = 0;
    const later = (fn: () => void, extraMs = 0) => {
      const due = Math.max(lastDue, Date.now() + delayMs + extraMs);
      lastDue = due;
      setTimeout(fn, due - Date.now());
    };
    upstream.on('data', (b: Buffer) => later(() => client.destroyed || client.write(b), extra.shift()));
    upstream.on('end', () => later(() => client.end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hiccup: (extraMs) => void extra.splice(0, extra.length, ...extraMs),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
