// The floor of any Node client for a paged node list: reads every page (limit=500, continue)
// over one keep-alive HTTPS connection and keeps no byte of it. Its peak RSS is what Node,
// TLS and the socket's buffers need to receive the list, whatever a check does with it.
// Usage: node bare-node-list-client.cjs URL CA_FILE TOKEN
'use strict';
const https = require('node:https');
const fs = require('node:fs');
const [url, caFile, token] = process.argv.slice(2);
const agent = new https.Agent({ keepAlive: true });
const options = { agent, ca: fs.readFileSync(caFile), headers: { authorization: `Bearer ${token}`, accept: 'application/json' } };
const page = (next) =>
  https.get(`${url}/api/v1/nodes?limit=500${next ? `&continue=${encodeURIComponent(next)}` : ''}`, options, (res) => {
    let head = '';
    res.on('data', (d) => {
      if (head.length < 4096) head += d.toString('latin1', 0, 4096);
    });
    res.on('end', () => {
      const m = /"continue":"([^"]+)"/.exec(head);
      if (res.statusCode !== 200) process.exit(3);
      if (m) page(m[1]);
      else process.exit(0);
    });
  });
page();
