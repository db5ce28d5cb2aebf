// The VcdConnection the vCD client unit tests hand to the client: API version 34.0, default
// TLS, a 1 MiB answer bound, and no secret collection or phase tracking unless asked.
import type { VcdConnection } from '../../lib/vcd/api/connection';

/** A connection to `host` for nock-mocked requests; `overrides` replace single fields. */
export function testConnection(host: string, overrides: Partial<VcdConnection> = {}): VcdConnection {
  return { base: new URL(host), apiVersion: '34.0', tls: {}, maxBytes: 1 << 20, addSecret: () => undefined, setPhase: () => undefined, ...overrides };
}
