import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { api, CONSOLE_BASE, must, type Schemas } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { PageTitle } from '../components/page-title';
import { localTime } from '../components/time';
import { STATUS_LABELS } from './imports-page';

type Detail = Schemas['OperatorImportDetail'];

/**
 * Follows the process live (followImportProcess, Server-Sent Events): each change goes into the page's data at once;
 * a new status also reads the history again. The browser reconnects a stream that broke.
 */
function useLiveProcess(tenant: string, processId: string, following: boolean): void {
  const queries = useQueryClient();
  useEffect(() => {
    if (!following) return;
    const key = ['import', tenant, processId];
    const url = `${CONSOLE_BASE}/api/v1/tenants/${encodeURIComponent(tenant)}/import-processes/${processId}/events`;
    const events = new EventSource(url);
    events.addEventListener('process', (event) => {
      const view = JSON.parse((event as MessageEvent<string>).data) as Schemas['OperatorImportView'];
      const before = queries.getQueryData<Detail>(key);
      queries.setQueryData<Detail>(key, (detail) => detail && { ...detail, ...view });
      if (before?.status !== view.status || view.ended_at) void queries.invalidateQueries({ queryKey: key });
    });
    events.addEventListener('end', () => events.close());
    return () => events.close();
  }, [tenant, processId, following, queries]);
}

/** One import: live status and progress, its stage history, issues and failure; retry or cancel it. */
export function ImportPage() {
  const { tenant, processId } = useParams() as { tenant: string; processId: string };
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const path = { params: { path: { tenant, processId } } };
  const process = useQuery({
    queryKey: ['import', tenant, processId],
    queryFn: () => must(api.GET('/tenants/{tenant}/import-processes/{processId}', path)),
  });
  useLiveProcess(tenant, processId, process.data !== undefined && process.data.ended_at === null);
  const done = (text: string) => () => {
    success(text);
    void queries.invalidateQueries({ queryKey: ['import', tenant, processId] });
    void queries.invalidateQueries({ queryKey: ['imports', tenant] });
  };
  const retry = useMutation({
    mutationFn: () => must(api.POST('/tenants/{tenant}/import-processes/{processId}/retry', path)),
    onSuccess: done('Der Import wird wiederholt.'),
    onError: failure,
  });
  const cancel = useMutation({
    mutationFn: () => must(api.POST('/tenants/{tenant}/import-processes/{processId}/cancel', path)),
    onSuccess: done('Der Import wird abgebrochen.'),
    onError: failure,
  });
  if (process.isError)
    return (
      <>
        <PageTitle>Import</PageTitle>
        <p role="alert">Diesen Import gibt es in diesem Mandanten nicht.</p>
      </>
    );
  const item = process.data;
  if (!item) return <p className="loading">Wird geladen …</p>;
  return (
    <>
      <PageTitle>
        Import {item.file_name} von {item.broker}
      </PageTitle>
      <p>
        <Link to={`/t/${encodeURIComponent(tenant)}/imports`}>Zurück zu den Importen</Link>
      </p>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="import-status">{STATUS_LABELS[item.status] ?? item.status}</dd>
        <dt>Fortschritt</dt>
        <dd>
          <progress max={100} value={item.progress_percent} aria-label="Fortschritt">
            {item.progress_percent} %
          </progress>{' '}
          {item.progress_percent} %
        </dd>
        <dt>Datensätze</dt>
        <dd>{item.amount_of_records ?? '–'}</dd>
        <dt>Gestartet / beendet</dt>
        <dd>
          {localTime(item.started_at)} / {localTime(item.ended_at)}
        </dd>
        {item.failure_reason && (
          <>
            <dt>Grund des Fehlschlags</dt>
            <dd>{item.failure_reason}</dd>
          </>
        )}
        {item.cancel_requested_by && (
          <>
            <dt>Abbruch angefordert von</dt>
            <dd>{item.cancel_requested_by}</dd>
          </>
        )}
      </dl>
      <p>
        {item.retry_from && (
          <button type="button" disabled={retry.isPending} onClick={() => retry.mutate()}>
            Wiederholen (ab Status {item.retry_from})
          </button>
        )}{' '}
        {item.cancellable && (
          <button
            type="button"
            className="secondary"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
          >
            Abbrechen
          </button>
        )}
      </p>
      <NoticeLine notice={notice} />
      <h2>Verlauf</h2>
      <ol className="history">
        {item.history.map((change, index) => (
          <li key={`${change.status}-${index}`}>
            {localTime(change.changed_at)}: {STATUS_LABELS[change.status] ?? change.status}
          </li>
        ))}
      </ol>
      <h2>Hinweise ({item.issue_count})</h2>
      {item.issues.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Schritt</th>
              <th scope="col">Art</th>
              <th scope="col">Zeile</th>
              <th scope="col">Meldung</th>
            </tr>
          </thead>
          <tbody>
            {item.issues.map((issue, index) => (
              <tr key={index}>
                <td>{issue.stage}</td>
                <td>{issue.severity === 'rejected' ? 'abgelehnt' : 'Warnung'}</td>
                <td>{issue.line ?? '–'}</td>
                <td>{issue.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
