import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, must } from '../api';
import { PageTitle } from '../components/page-title';
import { PAGE_SIZE, Pager } from '../components/pager';
import { localTime } from '../components/time';

type State = 'failing' | 'disabled' | '';

/** The webhook endpoints of the tenant's brokers, failing ones first. */
export function WebhooksPage() {
  const tenant = useParams().tenant!;
  const [state, setState] = useState<State>('');
  const [offset, setOffset] = useState(0);
  const endpoints = useQuery({
    queryKey: ['webhooks', tenant, state, offset],
    queryFn: () =>
      must(
        api.GET('/tenants/{tenant}/webhook-endpoints', {
          params: { path: { tenant }, query: { ...(state ? { state } : {}), offset, limit: PAGE_SIZE } },
        }),
      ),
  });
  return (
    <>
      <PageTitle>Webhooks der Makler des Mandanten {tenant}</PageTitle>
      <p>
        <label>
          Zeigen{' '}
          <select
            value={state}
            onChange={(event) => {
              setOffset(0);
              setState(event.target.value as State);
            }}
          >
            <option value="">alle Endpunkte</option>
            <option value="failing">nur fehlschlagende</option>
            <option value="disabled">nur deaktivierte</option>
          </select>
        </label>
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Endpunkt</th>
            <th scope="col">Makler</th>
            <th scope="col">Fehlschläge seit</th>
            <th scope="col">Deaktiviert</th>
            <th scope="col">Wartend / abgebrochen</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.data?.items.map((endpoint) => (
            <tr key={endpoint.id}>
              <td>
                <Link to={`/t/${encodeURIComponent(tenant)}/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
              </td>
              <td>{endpoint.broker}</td>
              <td>{localTime(endpoint.failing_since)}</td>
              <td>{endpoint.disabled_at ? `ja, ${localTime(endpoint.disabled_at)}` : 'nein'}</td>
              <td>
                {endpoint.pending_deliveries} / {endpoint.abandoned_deliveries}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="Webhooks" offset={offset} total={endpoints.data?.total ?? 0} onOffset={setOffset} />
    </>
  );
}
