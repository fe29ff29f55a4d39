import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, must } from '../api';
import { formText } from '../components/form-text';
import { PageTitle } from '../components/page-title';

interface Filter {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
}

/** A local date and time of a datetime-local field as RFC 3339, or nothing when the field is empty. */
function instant(value: string): string | undefined {
  return value ? new Date(value).toISOString() : undefined;
}

function filterOf(form: FormData): Filter {
  const text = (name: string) => formText(form, name).trim() || undefined;
  return {
    actor: text('actor'),
    action: text('action'),
    target: text('target'),
    from: instant(formText(form, 'from')),
    to: instant(formText(form, 'to')),
  };
}

/** The tenant's audit trail, newest first, filtered by the service; more pages on request (cursor). */
export function AuditPage() {
  const tenant = useParams().tenant!;
  const [filter, setFilter] = useState<Filter>({});
  const events = useInfiniteQuery({
    queryKey: ['audit', tenant, filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/tenants/{tenant}/audit-events', {
          params: { path: { tenant }, query: { ...filter, cursor: pageParam, limit: 50 } },
        }),
      ),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  return (
    <>
      <PageTitle>Protokoll des Mandanten {tenant}</PageTitle>
      <form
        className="inline-form"
        role="search"
        aria-label="Protokoll filtern"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter(filterOf(new FormData(event.currentTarget)));
        }}
      >
        <label>
          Wer <input name="actor" autoComplete="off" />
        </label>
        <label>
          Aktion <input name="action" autoComplete="off" />
        </label>
        <label>
          Objekt <input name="target" autoComplete="off" />
        </label>
        <label>
          Ab <input name="from" type="datetime-local" />
        </label>
        <label>
          Bis <input name="to" type="datetime-local" />
        </label>
        <button type="submit">Filtern</button>
      </form>
      {events.isError && <p role="alert">Das Protokoll kann nicht geladen werden.</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">Zeit</th>
            <th scope="col">Wer</th>
            <th scope="col">Aktion</th>
            <th scope="col">Objekt</th>
            <th scope="col">Änderungen</th>
          </tr>
        </thead>
        <tbody>
          {events.data?.pages
            .flatMap((page) => page.items)
            .map((event) => (
              <tr key={event.id}>
                <td>{new Date(event.time).toLocaleString('de-DE')}</td>
                <td>
                  {event.actor.subject} <span className="muted">({event.actor.kind})</span>
                </td>
                <td>{event.action}</td>
                <td>{event.target}</td>
                <td>
                  <code>{JSON.stringify(event.changes)}</code>
                </td>
              </tr>
            ))}
        </tbody>
      </table>
      {events.hasNextPage && (
        <button
          type="button"
          onClick={() => void events.fetchNextPage()}
          disabled={events.isFetchingNextPage}
        >
          Ältere Einträge laden
        </button>
      )}
    </>
  );
}
