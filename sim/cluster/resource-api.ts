import type { IncomingMessage, ServerResponse } from 'node:http';

/** A set of cluster resources the simulator serves beside the nodes (the monitoring stack, the operators). */
export interface ResourceApi {
  /** Whether the path is one of these resources (else the caller answers). */
  handles(pathname: string): boolean;
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    account: string | undefined,
    sendStatus: (res: ServerResponse, code: number, reason: string, message: string, details?: object) => void,
  ): void;
}
