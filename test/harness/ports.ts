/**
 * A port nothing listens on now, as the system hands out for port 0: for test servers and the
 * benchmarks' child processes (a random pick in the ephemeral range can meet an outgoing socket).
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
