/** What one multi-call may hold; over a limit the whole batch is refused and no part runs. */
export interface MultiCallLimits {
  maxParts: number;
  /** Body of one part. */
  maxPartBytes: number;
  /** The whole request by its Content-Length, and all part bodies together however it is sent. */
  maxRequestBytes: number;
  /** The header block of one part. */
  maxPartHeaderBytes: number;
}

export const MULTI_CALL_LIMITS = Symbol('MULTI_CALL_LIMITS');
