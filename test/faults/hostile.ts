// Hostile and broken servers (issue 16): bodies built to exhaust memory or time, pages that
// never end, messages meant to flood the status line. Every one must still end as one short
// UNKNOWN line within -t (on a loaded machine moving 60 MB may take all of -t: then the
// timeout is that line). The big bodies are built on first use, once.
import type { FaultCase } from './matrix';

function once(make: () => string): () => string {
  let value: string | undefined;
  return () => (value ??= make());
}

const list = (items: string) => `{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[${items}]}`;
// 63 MiB of `{}` items: once 33 s, 4.5 GB and V8's heap-limit abort (exit 134, no output).
const emptyNodes = once(() => list(Array(Math.floor((63 * 1024 * 1024) / 3)).fill('{}').join(',')));
// Well-formed nodes, as many as fit in 48 MB (1.5 million): bounded by --max-nodes, not by memory.
const tinyNodes = once(() => list(Array.from({ length: 1_500_000 }, (_, i) => `{"metadata":{"name":"n${i}"}}`).join(',')));
// A million `{}` in 3 MB: once 41 MB of long output.
const millionEmpty = once(() => list(Array(1_000_000).fill('{}').join(',')));
const nestedName = once(() => list(`{"metadata":{"name":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}}`));
const longStatus = once(() => JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `etcdserver: ${'request timed out, '.repeat(3000)}`, reason: 'InternalError', code: 500 }));

const usage = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?><CurrentUsage xmlns="http://www.vmware.com/vcloud/v1.5">${inner}</CurrentUsage>`;
// 200,000 attributes on one element: once 36 s (a quadratic duplicate check), then OK.
const manyAttributes = once(() => `<?xml version="1.0"?><CurrentUsage xmlns="http://www.vmware.com/vcloud/v1.5"${Array.from({ length: 200_000 }, (_, i) => ` a${i}="1"`).join('')}/>`);
// 66 MB of <a/>: once OK after the deadline, and 3 GB.
const manyElements = once(() => usage('<a/>'.repeat(16_500_000)));
// A 30 MB error message: once a 30 MB status line.
const hugeError = once(
  () =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="INTERNAL_SERVER_ERROR" message="[ 0f3c9a1e-1111-4222-8333-444455556666 ] simulated failure ${'x'.repeat(30_000_000)}" majorErrorCode="500"/>`,
);

export const HOSTILE_CASES: FaultCase[] = [
  {
    id: 'hostile: a 63 MiB page of empty node objects',
    only: 'nodes',
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: emptyNodes() }];
    },
    cause: { nodes: /unexpected response from .*: items\[0\]\.metadata is missing|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: 1.5 million nodes in one 48 MB page',
    only: 'nodes',
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: tinyNodes() }];
    },
    cause: { nodes: /listed more than 100000 nodes; raise --max-nodes|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: a million {} items in 3 MB',
    only: 'nodes',
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: millionEmpty() }];
    },
    cause: { nodes: /items\[0\]\.metadata is missing/, vm: /never/ },
  },
  {
    id: 'hostile: endless pages with new continue tokens',
    only: 'nodes',
    faults: [{ kind: 'endless-list' }],
    cause: { nodes: /listed more than 100000 nodes|more than \d+ pages of nodes|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: a million-deep array as a node name',
    only: 'nodes',
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: nestedName() }];
    },
    cause: { nodes: /items\[0\]\.metadata\.name is an array, not a string/, vm: /never/ },
  },
  {
    id: 'hostile: a 60 KB Status message',
    only: 'nodes',
    get faults() {
      return [{ kind: 'status' as const, status: 500, contentType: 'application/json', body: longStatus() }];
    },
    cause: { nodes: /HTTP 500 .*etcdserver: request timed out.*more characters/, vm: /never/ },
  },
  {
    id: 'hostile: a chunked body over --max-bytes',
    extraArgs: ['--max-bytes', '1000'],
    faults: [{ kind: 'chunked' }],
    cause: { nodes: /larger than --max-bytes 1000/, vm: /larger than --max-bytes 1000/ },
  },
  {
    id: 'hostile: an XML element with 200,000 attributes',
    only: 'vm',
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/xml', body: manyAttributes() }];
    },
    cause: { nodes: /never/, vm: /more than 256 attributes in <CurrentUsage>/ },
  },
  {
    id: 'hostile: 66 MB of <a/>',
    only: 'vm',
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/xml', body: manyElements() }];
    },
    cause: { nodes: /never/, vm: /more than 500000 elements|timed out after 3s/ },
  },
  {
    id: 'hostile: a 30 MB vCD error message',
    only: 'vm',
    get faults() {
      return [{ kind: 'status' as const, status: 500, contentType: 'application/vnd.vmware.vcloud.error+xml;version=34.0', body: hugeError() }];
    },
    cause: { nodes: /never/, vm: /simulated failure x+… \(\d+ more characters\)/ },
  },
];
