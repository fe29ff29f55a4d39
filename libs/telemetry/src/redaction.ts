/** What logs and traces leave out: the values of query parameters that are credentials. */

/** Written in place of a credential. */
export const REDACTED = '[redacted]';

/**
 * Query parameters whose values are credentials, in lower case: the token of a customer's signing link, the
 * authorization code the login provider sends to the console's callback.
 */
const SECRET_QUERY_PARAMETERS = new Set(['token', 'code']);

export const isSecretQueryParameter = (name: string) => SECRET_QUERY_PARAMETERS.has(name.toLowerCase());

/** A name=value pair of a URL's query: its separator, its name (still encoded) and its value. */
const QUERY_PARAMETER = /([?&])([^=&#]*)=([^&#]*)/g;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The URL as logged and traced: the values of credential query parameters replaced (names compared decoded).
 */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  return (
    url.slice(0, query) +
    url
      .slice(query)
      .replace(QUERY_PARAMETER, (parameter, separator: string, name: string) =>
        isSecretQueryParameter(decodedName(name)) ? `${separator}${name}=${REDACTED}` : parameter,
      )
  );
}
