// The floor of any Node client for check_pvdc's two queries: logs in as the provider, reads
// the provider VDC and the provider storage-policy queries (one page each, as large as the
// server sends) over one keep-alive HTTPS connection, and keeps no byte of them. Its peak RSS is
// what Node, TLS and the socket's buffers need to receive the pages, whatever a check does
// with them.
// Usage: node bare-vcd-query-client.cjs URL CA_FILE USER PASSWORD_FILE
'use strict';
const https = require('node:https');
const fs = require('node:fs');
const [url, caFile, user, passwordFile] = process.argv.slice(2);
const agent = new https.Agent({ keepAlive: true });
const ca = fs.readFileSync(caFile);
const password = fs.readFileSync(passwordFile, 'utf8').replace(/\r?\n$/, '');
const basic = Buffer.from(`${user}@System:${password}`).toString('base64');
const login = https.request(
  `${url}/cloudapi/1.0.0/sessions/provider`,
  { method: 'POST', agent, ca, headers: { authorization: `Basic ${basic}`, accept: 'application/json;version=39.0' } },
  (res) => {
    res.resume();
    const token = res.headers['x-vmware-vcloud-access-token'];
    if (res.statusCode !== 200 || !token) process.exit(3);
    res.on('end', () => query(token, ['providerVdc', 'providerVdcStorageProfile']));
  },
);
login.end();

function query(token, types) {
  if (types.length === 0) process.exit(0);
  const path = `/api/query?type=${types[0]}&format=records&pageSize=128&sortAsc=name`;
  https.get(`${url}${path}`, { agent, ca, headers: { authorization: `Bearer ${token}`, accept: 'application/*+xml;version=39.0' } }, (res) => {
    let bytes = 0;
    res.on('data', (d) => void (bytes += d.length));
    res.on('end', () => {
      if (res.statusCode !== 200 || bytes < 1000) process.exit(3);
      query(token, types.slice(1));
    });
  });
}
