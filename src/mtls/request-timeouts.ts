/**
 * How long a client may take to send a request before it is answered a JSON 408 and disconnected: the bounds
 * every listener applies, plain or TLS (http/app.ts's REQUEST_TIMEOUTS are the production values). Here, below
 * both, so that the TLS listener need not reach up into http/ for them.
 */
export interface RequestTimeouts {
  /** From the first byte of a request to the end of its headers. */
  headersMs: number;
  /** From the first byte of a request to the end of its body; at least `headersMs`. */
  requestMs: number;
  /** How often Node looks for connections past either bound: a connection lives at most the bound plus this. */
  checkIntervalMs: number;
}
