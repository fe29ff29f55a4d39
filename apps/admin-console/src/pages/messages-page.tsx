import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, must } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { PageTitle } from '../components/page-title';
import { PAGE_SIZE, Pager } from '../components/pager';
import { localTime } from '../components/time';

type Status = 'pending' | 'sent' | 'failed' | '';
const STATUS_LABELS = { pending: 'wartend', sent: 'gesendet', failed: 'fehlgeschlagen' } as const;

/** Messages to the tenant's customers (e-mail, SMS): what waits, what failed and why; send again. */
export function MessagesPage() {
  const tenant = useParams().tenant!;
  const [status, setStatus] = useState<Status>('');
  const [offset, setOffset] = useState(0);
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const messages = useQuery({
    queryKey: ['messages', tenant, status, offset],
    queryFn: () =>
      must(
        api.GET('/tenants/{tenant}/outbox-messages', {
          params: { path: { tenant }, query: { ...(status ? { status } : {}), offset, limit: PAGE_SIZE } },
        }),
      ),
  });
  const resend = useMutation({
    mutationFn: (messageId: string) =>
      must(
        api.POST('/tenants/{tenant}/outbox-messages/{messageId}/resend', {
          params: { path: { tenant, messageId } },
        }),
      ),
    onSuccess: (message) => {
      success(`Nachricht an ${message.recipient} wird erneut gesendet.`);
      void queries.invalidateQueries({ queryKey: ['messages', tenant] });
    },
    onError: failure,
  });
  return (
    <>
      <PageTitle>Nachrichten an Kunden des Mandanten {tenant}</PageTitle>
      <p>
        <label>
          Zeigen{' '}
          <select
            value={status}
            onChange={(event) => {
              setOffset(0);
              setStatus(event.target.value as Status);
            }}
          >
            <option value="">alle</option>
            <option value="pending">wartend</option>
            <option value="failed">fehlgeschlagen</option>
            <option value="sent">gesendet</option>
          </select>
        </label>
      </p>
      <NoticeLine notice={notice} />
      <table>
        <thead>
          <tr>
            <th scope="col">Erstellt</th>
            <th scope="col">Makler</th>
            <th scope="col">Art</th>
            <th scope="col">Empfänger</th>
            <th scope="col">Status</th>
            <th scope="col">Versuche / Grund</th>
            <th scope="col">Aktion</th>
          </tr>
        </thead>
        <tbody>
          {messages.data?.items.map((message) => (
            <tr key={message.id}>
              <td>{localTime(message.created_at)}</td>
              <td>{message.broker}</td>
              <td>
                {message.kind} ({message.channel === 'sms' ? 'SMS' : 'E-Mail'})
              </td>
              <td>{message.recipient}</td>
              <td>{STATUS_LABELS[message.status]}</td>
              <td>
                {message.attempts}
                {message.last_error ? `: ${message.last_error}` : ''}
              </td>
              <td>
                {message.resendable ? (
                  <button type="button" className="secondary" onClick={() => resend.mutate(message.id)}>
                    Erneut senden<span className="visually-hidden"> an {message.recipient}</span>
                  </button>
                ) : message.status === 'sent' ? (
                  '–'
                ) : (
                  'Link verfallen: neuen Link anfordern'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="Nachrichten" offset={offset} total={messages.data?.total ?? 0} onOffset={setOffset} />
    </>
  );
}
