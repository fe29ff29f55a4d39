/** What the service accepts as contact values, wherever they are sent (customer contacts, sub-broker data). */
export const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE_NUMBER = /^\+?[0-9][0-9 ()/-]{3,24}$/;
/** With or without http(s)://, a host name with at least one dot. */
export const WEBSITE = /^(https?:\/\/)?[^\s/]+\.[^\s]+$/;
/** A German postal code (Postleitzahl). */
export const POSTAL_CODE = /^\d{5}$/;
