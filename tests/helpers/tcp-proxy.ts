import net from 'node:net';

/**
 * A TCP proxy between the server under test and a real database (default 127.0.0.1:5432), for fault
 * tests that must not touch the shared PostgreSQL server: `down()` cuts every open connection and
 * refuses new ones (the database is unreachable), `up()` lets them through again, `delay(ms)` holds
 * every chunk in both directions for that long (a slow database). Always `close()` it.
 */
export interface TcpProxy {
  port: number;
  /** A URL like `target` with the host and port replaced by the proxy's. */
  url(target: string): string;
  down(): void;
  up(): void;
  delay(ms: number): void;
  /** Connections accepted (while up) so far. */
  accepted(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort = 5432, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  let isDown = false;
  let delayMs = 0;
  let accepted = 0;
  const pairs = new Set<{ a: net.Socket; b: net.Socket }>();
  const relay = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (delayMs <= 0) {
        to.write(chunk);
        return;
      }
      // Order is kept: every chunk waits the same time, and timers of equal delay fire in order.
      from.pause();
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
        from.resume();
      }, delayMs);
    });
  };
  const server = net.createServer((client) => {
    if (isDown) {
      client.destroy();
      return;
    }
    accepted++;
    const upstream = net.connect(targetPort, targetHost);
    const pair = { a: client, b: upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url(target: string) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    down() {
      isDown = true;
      for (const p of pairs) {
        p.a.destroy();
        p.b.destroy();
      }
      pairs.clear();
    },
    up() {
      isDown = false;
    },
    delay(ms: number) {
      delayMs = ms;
    },
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        isDown = true;
        for (const p of pairs) {
          p.a.destroy();
          p.b.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
