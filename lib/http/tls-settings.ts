// The TLS settings of a request: shared by the request and the words of its network errors,
// which both import them from here.

/** How to trust the server, how to prove who we are, and (kubeconfig proxy-url) the route. */
export interface TlsSettings {
  /** PEM text of the CA(s) that may sign the server certificate. */
  ca?: string;
  /**
   * `ca` is the only trust anchor (a cluster CA, as in kubectl and curl --cacert); otherwise
   * it is trusted in addition to the system roots.
   */
  caOnly?: boolean;
  insecure?: boolean;
  /** Client certificate and key (PEM) for servers that authenticate clients by certificate. */
  cert?: string;
  key?: string;
  /** The name sent by SNI and checked in the server certificate, instead of the URL's host. */
  serverName?: string;
  /** A proxy for this server only, in place of HTTPS_PROXY/NO_PROXY (kubeconfig proxy-url). */
  proxy?: URL;
  /** Where `ca` came from, for messages: `--ca-file`, `certificate-authority of kubeconfig …`. */
  caSource?: string;
}
