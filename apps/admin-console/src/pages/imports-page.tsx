import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, CONSOLE_BASE, must, type Schemas } from '../api';
import { formText } from '../components/form-text';
import { PageTitle } from '../components/page-title';
import { PAGE_SIZE, Pager } from '../components/pager';
import { localTime } from '../components/time';

type View = Schemas['OperatorImportView'];
type ProcessPage = Schemas['OperatorImportPage'];
type Status = NonNullable<View['status']>;

export const STATUS_LABELS: Partial<Record<Status, string>> = {
  uploaded: 'hochgeladen',
  processed: 'verarbeitet',
  archived: 'archiviert',
  failed: 'fehlgeschlagen',
};

type Sort = '-started_at' | 'started_at' | '-updated_at' | 'updated_at';

interface Filter {
  sort?: Sort;
  status?: Status;
  broker?: string;
  from?: string;
  to?: string;
}

const dayStart = (date: string) => (date ? new Date(`${date}T00:00:00`).toISOString() : undefined);

/**
 * Follows the listed imports live (followImportProcesses, Server-Sent Events): each change goes into the list at
 * once; an import started since, one that no longer has the status the list is filtered by, and every (re)opening
 * of the stream ask for the list again. The browser reconnects a stream that broke.
 */
function useLiveImports(tenant: string, key: QueryKey, status: Status | undefined, ids: string[]): void {
  const queries = useQueryClient();
  const keyText = JSON.stringify(key);
  const idList = ids.join(',');
  useEffect(() => {
    const listKey = JSON.parse(keyText) as QueryKey;
    const path = `${CONSOLE_BASE}/api/v1/tenants/${encodeURIComponent(tenant)}/import-processes/events`;
    const url = idList ? `${path}?ids=${idList}` : path;
    const events = new EventSource(url);
    events.addEventListener('process', (event) => {
      const view = JSON.parse((event as MessageEvent<string>).data) as View;
      if (status && view.status !== status) void queries.invalidateQueries({ queryKey: listKey });
      else
        queries.setQueryData<ProcessPage>(
          listKey,
          (page) => page && { ...page, items: page.items.map((item) => (item.id === view.id ? view : item)) },
        );
    });
    events.addEventListener('started', () => void queries.invalidateQueries({ queryKey: listKey }));
    // Whenever the stream (re)opens, the list is asked for again: it tells only of imports started after it opened.
    events.addEventListener('open', () => void queries.invalidateQueries({ queryKey: listKey }));
    return () => events.close();
  }, [tenant, keyText, status, idList, queries]);
}

/** The tenant's imports: by status, broker and day; they move live. */
export function ImportsPage() {
  const tenant = useParams().tenant!;
  const [filter, setFilter] = useState<Filter>({});
  const [offset, setOffset] = useState(0);
  const queries = useQueryClient();
  const key = ['imports', tenant, filter, offset];
  const imports = useQuery({
    queryKey: key,
    queryFn: () =>
      must(
        api.GET('/tenants/{tenant}/import-processes', {
          params: { path: { tenant }, query: { ...filter, offset, limit: PAGE_SIZE } },
        }),
      ),
  });
  useLiveImports(tenant, key, filter.status, imports.data?.items.map((item) => item.id) ?? []);
  return (
    <>
      <PageTitle>Importe des Mandanten {tenant}</PageTitle>
      <form
        className="inline-form"
        role="search"
        aria-label="Importe filtern"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const to = formText(form, 'to');
          setOffset(0);
          // The same filter again asks again: the imports change by themselves.
          void queries.invalidateQueries({ queryKey: ['imports', tenant] });
          setFilter({
            sort: (formText(form, 'sort') || undefined) as Sort | undefined,
            status: (formText(form, 'status') || undefined) as Status | undefined,
            broker: formText(form, 'broker').trim() || undefined,
            from: dayStart(formText(form, 'from')),
            to: to ? new Date(new Date(`${to}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined,
          });
        }}
      >
        <label>
          Status{' '}
          <select name="status" defaultValue="">
            <option value="">alle</option>
            <option value="failed">fehlgeschlagen</option>
            <option value="processed">verarbeitet</option>
            <option value="uploaded">hochgeladen</option>
          </select>
        </label>
        <label>
          Makler <input name="broker" autoComplete="off" />
        </label>
        <label>
          Von <input name="from" type="date" />
        </label>
        <label>
          Bis <input name="to" type="date" />
        </label>
        <label>
          Sortierung{' '}
          <select name="sort" defaultValue="-started_at">
            <option value="-started_at">neueste zuerst</option>
            <option value="started_at">älteste zuerst</option>
            <option value="-updated_at">zuletzt geändert</option>
          </select>
        </label>
        <button type="submit">Filtern</button>
      </form>
      {imports.isError && <p role="alert">Die Importe können nicht geladen werden.</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">Gestartet</th>
            <th scope="col">Makler</th>
            <th scope="col">Datei</th>
            <th scope="col">Status</th>
            <th scope="col">Fortschritt</th>
          </tr>
        </thead>
        <tbody>
          {imports.data?.items.map((item) => (
            <tr key={item.id}>
              <td>
                <Link to={`/t/${encodeURIComponent(tenant)}/imports/${item.id}`}>
                  {localTime(item.started_at)}
                </Link>
              </td>
              <td>{item.broker}</td>
              <td>
                {item.file_name} ({item.file_type}){item.dry_run ? ', Probelauf' : ''}
              </td>
              <td>{STATUS_LABELS[item.status] ?? item.status}</td>
              <td>
                <progress
                  max={100}
                  value={item.progress_percent}
                  aria-label={`Fortschritt ${item.file_name}`}
                >
                  {item.progress_percent} %
                </progress>{' '}
                {item.progress_percent} %
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="Importe" offset={offset} total={imports.data?.total ?? 0} onOffset={setOffset} />
    </>
  );
}
