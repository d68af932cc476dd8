import net from 'node:net';

/** Send raw bytes to 127.0.0.1:port and collect what comes back until the server closes (or timeout). */
export function rawHttp(port: number, request: string | Buffer, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (c) => {
      chunks.push(c);
      // One complete response is enough when the server keeps the connection alive.
      const text = Buffer.concat(chunks).toString('utf8');
      const head = text.indexOf('\r\n\r\n');
      const len = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, head));
      if (head >= 0 && len && text.length - head - 4 >= Number(len[1])) done();
    });
    socket.on('end', done);
    socket.on('error', (e) => (chunks.length > 0 ? done() : reject(e)));
  });
}

/** A problem+json response's parsed body, after checking the content type. */
export async function problemOf(res: Response): Promise<Record<string, unknown>> {
  const type = res.headers.get('content-type');
  if (type !== 'application/problem+json') throw new Error(`expected problem+json, got ${type}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A JSON response body, loosely typed for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: tests assert on shapes with expect()
export async function jsonOf(res: Response): Promise<any> {
  return res.json();
}
