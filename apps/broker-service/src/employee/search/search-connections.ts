/** The size of the search pool (SEARCH_CONNECTIONS): searches at once in PostgreSQL, further ones wait. */
export const SEARCH_CONNECTIONS = Symbol('SEARCH_CONNECTIONS');
