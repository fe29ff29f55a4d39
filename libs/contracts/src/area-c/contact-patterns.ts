/** What the service accepts as contact values, wherever they are sent (customer contacts, sub-broker data). */
/** Labels between single dots: no part can match two ways, so even a long hostile value is read in linear time. */
export const EMAIL_ADDRESS = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const PHONE_NUMBER = /^\+?[0-9][0-9 ()/-]{3,24}$/;
/**
 * With or without http(s)://, a host name of at least two labels, an optional port, path and query. No other
 * scheme (a portal may render the value as a link: `javascript:` must not get through).
 */
export const WEBSITE = /^(https?:\/\/)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d{1,5})?([/?#]\S*)?$/;
/** A German postal code (Postleitzahl). */
export const POSTAL_CODE = /^\d{5}$/;
