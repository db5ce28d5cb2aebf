// The CONNECT half of the forward proxies the e2e tests put between a plugin and its server.
import type { IncomingMessage } from 'node:http';
import * as net from 'node:net';

/**
 * Answers a CONNECT like a forward proxy: connects to the host:port asked for, says 200,
 * then passes bytes both ways. `track` sees the upstream socket (tunnelled sockets leave the
 * HTTP server's bookkeeping, so tests close them by hand).
 */
export function openTunnel(req: IncomingMessage, socket: net.Socket, head: Buffer, track: (upstream: net.Socket) => void): void {
  const [host, port] = (req.url ?? '').split(':');
  const upstream = net.connect(Number(port), host, () => {
    track(upstream);
    socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
    upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
}
