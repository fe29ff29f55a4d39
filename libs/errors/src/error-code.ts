/**
 * Domain error codes. The number is the `code` field of the area A/B error body; the enum key is its `name`.
 * Codes are stable: add new ones, never renumber.
 */
export enum ErrorCode {
  ValidationFailed = 1000,
  MalformedRequest = 1001,
  PayloadTooLarge = 1002,
  UnsupportedMediaType = 1003,
  /** The request body stopped arriving before it was complete. */
  RequestTimeout = 1004,
  AuthenticationRequired = 1100,
  AuthenticationFailed = 1101,
  Forbidden = 1102,
  InsufficientScope = 1103,
  /** Area C: the authentication header group is missing, malformed, stale or wrong. */
  AuthenticationHeadersInvalid = 1104,
  NotFound = 1200,
  RouteNotFound = 1201,
  MethodNotAllowed = 1202,
  Conflict = 1300,
  Gone = 1301,
  RateLimited = 1400,
  /** No database connection became free within the wait (DB_POOL_WAIT_MS): try again after Retry-After. */
  Overloaded = 1500,
  /** A service the request depends on (the authorization server's keys) cannot be reached: try again later. */
  DependencyUnavailable = 1501,
  ClientError = 1900,
}

/** The one place where a domain error code becomes an HTTP status. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.ValidationFailed:
    case ErrorCode.MalformedRequest:
    case ErrorCode.ClientError:
    case ErrorCode.AuthenticationHeadersInvalid:
      return 400;
    case ErrorCode.AuthenticationRequired:
    case ErrorCode.AuthenticationFailed:
      return 401;
    case ErrorCode.Forbidden:
    case ErrorCode.InsufficientScope:
      return 403;
    case ErrorCode.NotFound:
    case ErrorCode.RouteNotFound:
      return 404;
    case ErrorCode.MethodNotAllowed:
      return 405;
    case ErrorCode.Conflict:
      return 409;
    case ErrorCode.Gone:
      return 410;
    case ErrorCode.RequestTimeout:
      return 408;
    case ErrorCode.PayloadTooLarge:
      return 413;
    case ErrorCode.UnsupportedMediaType:
      return 415;
    case ErrorCode.RateLimited:
      return 429;
    case ErrorCode.Overloaded:
    case ErrorCode.DependencyUnavailable:
      return 503;
    default:
      return assertNever(code);
  }
}

/** The domain error code for a client error status raised by the framework (router, body parser, multer). */
export function errorCodeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return ErrorCode.MalformedRequest;
    case 401:
      return ErrorCode.AuthenticationRequired;
    case 403:
      return ErrorCode.Forbidden;
    case 404:
      return ErrorCode.RouteNotFound;
    case 405:
      return ErrorCode.MethodNotAllowed;
    case 409:
      return ErrorCode.Conflict;
    case 408:
      return ErrorCode.RequestTimeout;
    case 410:
      return ErrorCode.Gone;
    case 413:
      return ErrorCode.PayloadTooLarge;
    case 415:
      return ErrorCode.UnsupportedMediaType;
    case 429:
      return ErrorCode.RateLimited;
    default:
      return ErrorCode.ClientError;
  }
}

export function assertNever(value: never): never {
  throw new Error(`Unhandled value: ${String(value)}`);
}
