import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, must } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { PageTitle } from '../components/page-title';
import { localTime } from '../components/time';

/** One webhook endpoint: its health, last attempts and undelivered events; enable it, deliver again. */
export function WebhookPage() {
  const { tenant, endpointId } = useParams() as { tenant: string; endpointId: string };
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const path = { params: { path: { tenant, endpointId } } };
  const endpoint = useQuery({
    queryKey: ['webhook', tenant, endpointId],
    queryFn: () => must(api.GET('/tenants/{tenant}/webhook-endpoints/{endpointId}', path)),
    refetchInterval: 5_000,
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['webhook', tenant, endpointId] });
  const enable = useMutation({
    mutationFn: () => must(api.POST('/tenants/{tenant}/webhook-endpoints/{endpointId}/enable', path)),
    onSuccess: () => {
      success('Der Endpunkt ist wieder aktiv.');
      refresh();
    },
    onError: failure,
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId?: string) =>
      must(
        api.POST('/tenants/{tenant}/webhook-endpoints/{endpointId}/redeliver', {
          ...path,
          body: deliveryId ? { delivery_id: deliveryId } : {},
        }),
      ),
    onSuccess: (result) => {
      success(`${result.redelivered} Zustellung(en) werden erneut versucht.`);
      refresh();
    },
    onError: failure,
  });
  if (endpoint.isError)
    return (
      <>
        <PageTitle>Webhook</PageTitle>
        <p role="alert">Diesen Endpunkt gibt es in diesem Mandanten nicht.</p>
      </>
    );
  const item = endpoint.data;
  if (!item) return <p className="loading">Wird geladen …</p>;
  return (
    <>
      <PageTitle>Webhook von {item.broker}</PageTitle>
      <p>
        <Link to={`/t/${encodeURIComponent(tenant)}/webhooks`}>Zurück zu den Webhooks</Link>
      </p>
      <dl className="facts">
        <dt>Adresse</dt>
        <dd>{item.url}</dd>
        <dt>Ereignisse</dt>
        <dd>{item.event_types.join(', ')}</dd>
        <dt>Fehlschläge seit</dt>
        <dd>{localTime(item.failing_since)}</dd>
        <dt>Deaktiviert</dt>
        <dd>{item.disabled_at ? `${localTime(item.disabled_at)}: ${item.disabled_reason ?? ''}` : 'nein'}</dd>
      </dl>
      <p>
        {(item.disabled_at || item.failing_since) && (
          <button type="button" onClick={() => enable.mutate()} disabled={enable.isPending}>
            Wieder aktivieren
          </button>
        )}{' '}
        {item.abandoned_deliveries > 0 && !item.disabled_at && (
          <button type="button" onClick={() => redeliver.mutate(undefined)} disabled={redeliver.isPending}>
            Alle abgebrochenen erneut zustellen ({item.abandoned_deliveries})
          </button>
        )}
      </p>
      <NoticeLine notice={notice} />
      <h2>Nicht zugestellt</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Ereignis</th>
            <th scope="col">Import</th>
            <th scope="col">Zustand</th>
            <th scope="col">Versuche</th>
            <th scope="col">Aktion</th>
          </tr>
        </thead>
        <tbody>
          {item.undelivered.map((delivery) => (
            <tr key={delivery.id}>
              <td>{delivery.event_type}</td>
              <td>
                <Link to={`/t/${encodeURIComponent(tenant)}/imports/${delivery.process_id}`}>
                  {delivery.process_id}
                </Link>
              </td>
              <td>{delivery.state === 'abandoned' ? 'abgebrochen' : 'wartend'}</td>
              <td>{delivery.attempts}</td>
              <td>
                {delivery.state === 'abandoned' && !item.disabled_at && (
                  <button type="button" className="secondary" onClick={() => redeliver.mutate(delivery.id)}>
                    Erneut zustellen<span className="visually-hidden"> {delivery.id}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Letzte Versuche</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Zeit</th>
            <th scope="col">Ereignis</th>
            <th scope="col">Antwort</th>
            <th scope="col">Dauer</th>
          </tr>
        </thead>
        <tbody>
          {item.attempts.map((attempt, index) => (
            <tr key={index}>
              <td>{localTime(attempt.attempted_at)}</td>
              <td>{attempt.event_type}</td>
              <td>{attempt.status_code ?? attempt.error ?? '–'}</td>
              <td>{attempt.duration_ms} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
