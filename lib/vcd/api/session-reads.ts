// How a check reads with the run's session: the one shape of a GET (and a POST) that the queries,
// the per-VM seam and the checks hand each other.
import type { BodyStream, HttpResponse } from '../../http/request';

/**
 * GET with an open session: one new login on 401 (shared by the requests it refused), one new
 * negotiation on 406; `stream` takes the body of a 2xx answer as it arrives (BodyStream).
 */
export type SessionReader = (path: string, accept?: () => string, stream?: BodyStream) => Promise<HttpResponse>;

/** GETs a document with the run's session (one new login on 401); `phase` names the read if -t expires. */
export type SessionGet = (path: string, phase: string) => Promise<HttpResponse>;

/** POSTs a document with the run's session (one new login on 401); `phase` as for SessionGet. */
export type SessionPost = (path: string, body: string, contentType: string, phase: string) => Promise<HttpResponse>;
