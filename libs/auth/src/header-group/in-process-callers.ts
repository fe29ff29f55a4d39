import type { HttpRequestLike } from '../http-request.js';
import type { SvcPrincipal } from './header-group-verifier.js';

/**
 * Connections opened inside this process to run the parts of a multi-call, each bound to the caller its outer
 * request authenticated. A request arriving on such a connection acts as that caller without a header group of
 * its own (the outer request spent the nonce). Only in-memory connections are ever bound, so no request from
 * the network can claim a caller this way.
 */
export class InProcessCallers {
  private readonly callers = new WeakMap<object, SvcPrincipal>();

  bind(connection: object, principal: SvcPrincipal): void {
    this.callers.set(connection, principal);
  }

  callerOf(request: HttpRequestLike): SvcPrincipal | undefined {
    return request.socket ? this.callers.get(request.socket) : undefined;
  }
}
