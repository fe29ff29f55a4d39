import { ErrorCode } from './error-code.js';

/**
 * An error whose cause lies with the caller. Domain code throws these (never HTTP exceptions);
 * each area's filter turns them into its error body.
 *
 * `details` lists the individual problems (one per failing field) when there is more than one.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: readonly string[] = [],
    /** Extra response headers, e.g. Retry-After or WWW-Authenticate. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  static validation(problems: readonly string[]): DomainError {
    return new DomainError(ErrorCode.ValidationFailed, problems.join('; '), problems);
  }

  static notFound(message: string): DomainError {
    return new DomainError(ErrorCode.NotFound, message);
  }
}
