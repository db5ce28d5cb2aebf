// Preloaded (NODE_OPTIONS=--require) where a network namespace cannot be made: names under
// .invalid fail to resolve at once, as a resolver would say, without any query leaving.
const dns = require('node:dns');
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  if (typeof hostname === 'string' && hostname.endsWith('.invalid')) {
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });
    process.nextTick(cb, error);
    return {};
  }
  return lookup.apply(this, arguments);
};
