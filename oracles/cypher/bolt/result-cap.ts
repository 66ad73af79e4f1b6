/**
 * A loopback proxy between neo4j-driver and Neo4j that enforces the result caps on the Bolt stream
 * itself (server-stream.ts), before the driver decodes a byte: a list of ten million integers or a
 * 1 GB string never reaches this process. At a violation the driver gets a Bolt FAILURE with the
 * code RESULT_TOO_LARGE_CODE (so the query it was running fails with a clear reason, and only that
 * query), then the connection is closed on both sides, which makes Neo4j terminate the
 * transaction. TLS connections cannot be read, so `proxyTarget` refuses bolt+s / neo4j+s URIs.
 */
import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { failureMessage, ServerStreamGuard, type StreamLimits } from './server-stream.ts';

/** The FAILURE code the proxy sends when a result passes a cap. */
export const RESULT_TOO_LARGE_CODE = 'Witness.ClientError.Result.TooLarge';

export interface ResultCapProxy {
  /** `bolt://127.0.0.1:<port>`: give it to neo4j-driver instead of the server's URI. */
  uri: string;
  close(): Promise<void>;
}

/** Host and port behind a plain Bolt URI (bolt:// or neo4j://), or null when the connection is encrypted. */
export function proxyTarget(uri: string): { host: string; port: number } | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'bolt:' && url.protocol !== 'neo4j:') return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost';
  return { host, port: url.port ? Number(url.port) : 7687 };
}

/** Starts the proxy on a free loopback port, forwarding to `target` under `limits`. */
export async function startResultCapProxy(
  target: { host: string; port: number },
  limits: StreamLimits,
): Promise<ResultCapProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  // No Nagle delays: Bolt is request/response in small messages, and a proxy must not add latency.
  const server = createServer({ noDelay: true }, (client) => {
    const upstream = createConnection({ ...target, noDelay: true });
    track(client);
    track(upstream);
    const guard = new ServerStreamGuard(limits);
    const destroyBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', destroyBoth);
    upstream.on('error', destroyBoth);
    client.once('close', () => upstream.destroy());
    upstream.once('end', () => client.end());
    upstream.once('close', () => client.end());
    client.pipe(upstream);
    upstream.on('data', (data: Buffer) => {
      const step = guard.push(data);
      const flowing =
        step.forward.length === 0 ||
        client.write(step.forward.length === 1 ? (step.forward[0] as Buffer) : Buffer.concat(step.forward));
      if (step.violation) {
        client.end(failureMessage(RESULT_TOO_LARGE_CODE, step.violation));
        upstream.destroy();
        return;
      }
      if (!flowing) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
  });
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    uri: `bolt://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
