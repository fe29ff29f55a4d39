import type { AdminPaths, AdminSchemas } from '@broker/client';
import createClient, { type Middleware } from 'openapi-fetch';

export type Schemas = AdminSchemas;

export const CONSOLE_BASE = '/admin/console';

/** The person logged in, as the console's server describes the session. */
export interface Session {
  subject: string;
  name: string;
  role: 'operator' | 'tenant-admin';
  tenant: string | null;
  csrf_token: string;
  expires_at: string;
}

/** An answer of the administration API that is no success: its message is shown as it is. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';

export function rememberCsrfToken(token: string): void {
  csrfToken = token;
}

/** Back to the login, and then to the page the person was on. */
export function goToLogin(): void {
  const here = `${location.pathname}${location.search}`;
  location.assign(`${CONSOLE_BASE}/login?return_to=${encodeURIComponent(here)}`);
}

const csrfAndSession: Middleware = {
  onRequest({ request }) {
    if (!['GET', 'HEAD'].includes(request.method)) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) goToLogin();
    return response;
  },
};

/** The administration API through the console's server, with the session's cookie (typed by @broker/client). */
export const api = createClient<AdminPaths>({
  baseUrl: `${CONSOLE_BASE}/api/v1`,
  credentials: 'same-origin',
});
api.use(csrfAndSession);

/** The data of an answer, or an ApiFailure with the service's message. */
export async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  if (response.ok && response.status === 204) return undefined as T;
  const message =
    error && typeof error === 'object' && 'message' in error ? String(error.message) : response.statusText;
  throw new ApiFailure(response.status, message);
}

export async function fetchSession(): Promise<Session | null> {
  const response = await fetch(`${CONSOLE_BASE}/session`, { credentials: 'same-origin' });
  if (response.status === 401) return null;
  if (!response.ok) throw new ApiFailure(response.status, 'Die Sitzung kann nicht gelesen werden');
  const session = (await response.json()) as Session;
  rememberCsrfToken(session.csrf_token);
  return session;
}

/** Ends the session here and at the login provider. */
export async function logout(): Promise<void> {
  const response = await fetch(`${CONSOLE_BASE}/logout`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'X-CSRF-Token': csrfToken },
  });
  if (!response.ok) return goToLogin();
  const { logout_url } = (await response.json()) as { logout_url: string };
  location.assign(logout_url);
}
