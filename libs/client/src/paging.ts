import { type CallResult, type DataOf, must } from './api-error.js';

/** One page of a paged operation. */
export interface Page<T> {
  items: T[];
  /** All items of the query, as the service counted them with this page. */
  total: number;
  /** The position of the page's first item among all of them (0 for the first page). */
  offset: number;
}

/**
 * The items of a paged operation, fetched a page at a time as they are iterated: `for await (const item of paged)`.
 * `pages()` gives the pages themselves, each with the total.
 */
export interface Paged<T> extends AsyncIterable<T> {
  pages(): AsyncGenerator<Page<T>>;
}

/** Pages of `pageSize` from `fetchPage(offset, pageSize)` until the total is reached or a page comes back short. */
function paged<T>(
  pageSize: number,
  fetchPage: (offset: number, size: number) => Promise<{ items: T[]; total: number }>,
): Paged<T> {
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError('pageSize must be a positive integer');
  async function* pages(): AsyncGenerator<Page<T>> {
    for (let offset = 0; ; offset += pageSize) {
      const { items, total } = await fetchPage(offset, pageSize);
      yield { items, total, offset };
      if (items.length < pageSize || offset + items.length >= total) return;
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
  };
}

/**
 * A paged operation of openapi-fetch as Paged: `call(offset, size)` makes the call of one page, whose answer names
 * the total in `totalHeader` (X-Svc-Total in area C, X-Total-Count in area A). A refused page is a BrokerApiError.
 */
export function pagedCall<R extends CallResult>(
  pageSize: number,
  totalHeader: string,
  call: (offset: number, size: number) => Promise<R>,
): Paged<DataOf<R> extends (infer T)[] ? T : never> {
  type Item = DataOf<R> extends (infer T)[] ? T : never;
  return paged(pageSize, async (offset, size) => {
    const pending = call(offset, size);
    const items = (await must(pending)) as Item[];
    return { items, total: totalOf((await pending).response, totalHeader) };
  });
}

function totalOf(response: Response, header: string): number {
  const value = response.headers.get(header) ?? '';
  if (!/^\d+$/.test(value)) throw new Error(`${response.url} answered without a total in ${header}`);
  return Number(value);
}
