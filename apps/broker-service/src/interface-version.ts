/**
 * The spec names area C's interface version `1.0` (`/service/{tenant}/employee/1.0/rest/...`); the service has
 * answered under `v1` from the start. Both name the same interface: a path under `1.0` is served as its `v1`
 * twin, and `v1` stays for the callers that use it.
 */
const SPEC_VERSION_BASE = /^(\/service\/[^/?#]+\/(?:employee|broker))\/1\.0\/rest(?=[/?#]|$)/;

/** The path (with its query) as the routes know it: `1.0` spelt `v1`; any other path unchanged. */
export const routedPath = (url: string): string => url.replace(SPEC_VERSION_BASE, '$1/v1/rest');

const CALLER_BASE = /^\/service\/[^/?#]+\/(?:employee|broker)\/(?:v1|1\.0)\/rest(?=[/?#]|$)/;

/**
 * The base of a request's original path as the caller wrote it (`1.0` or `v1`, the tenant as sent), or undefined
 * outside area C: the links of an answer follow it, so a caller of `1.0` is never sent to `v1`.
 */
export const callerBase = (originalUrl: string): string | undefined => CALLER_BASE.exec(originalUrl)?.[0];
