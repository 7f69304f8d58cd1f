import net from 'node:net';

/**
 * A TCP proxy on loopback that delays every chunk coming back from the server by `delayMs` (order
 * kept), as a far-away or loaded asset does: the gateway's keys reach the server at once, their echo
 * and everything else the server sends arrive `delayMs` later. Listens on a free port; `close()`
 * ends it and its connections.
 */
export interface DelayProxy {
  port: number;
  close(): Promise<void>;
}

export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>();
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
    // Timers of equal delay fire in the order they were set: chunks keep their order.
    upstream.on('data', (b: Buffer) => setTimeout(() => client.destroyed || client.write(b), delayMs));
    upstream.on('end', () => setTimeout(() => client.end(), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
