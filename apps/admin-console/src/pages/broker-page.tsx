import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formText, submitHandler } from '../components/form-text';
import { api, must, type Schemas } from '../api';
import { CredentialOnce } from '../components/credential-once';
import { NoticeLine, useNotice } from '../components/notice';
import { PageTitle } from '../components/page-title';

type Broker = Schemas['BrokerDetailView'];

/** One broker: its data (rename, move, block), its employees and its API clients (keys shown once). */
export function BrokerPage() {
  const { tenant, broker: number } = useParams() as { tenant: string; broker: string };
  const broker = useQuery({
    queryKey: ['broker', tenant, number],
    queryFn: () =>
      must(api.GET('/tenants/{tenant}/brokers/{broker}', { params: { path: { tenant, broker: number } } })),
  });
  if (broker.isError)
    return (
      <>
        <PageTitle>Makler {number}</PageTitle>
        <p role="alert">Diesen Makler gibt es in diesem Mandanten nicht.</p>
      </>
    );
  if (!broker.data) return <p className="loading">Wird geladen …</p>;
  return (
    <>
      <PageTitle>
        Makler {broker.data.number}: {broker.data.name}
      </PageTitle>
      <p>
        <Link to={`/t/${encodeURIComponent(tenant)}/brokers`}>Zurück zum Maklerbaum</Link>
      </p>
      <BrokerData tenant={tenant} broker={broker.data} />
      <Employees tenant={tenant} broker={broker.data} />
      <ApiClients tenant={tenant} broker={broker.data} />
    </>
  );
}

function useBrokerChange(tenant: string, number: string) {
  const queries = useQueryClient();
  const notice = useNotice();
  const change = useMutation({
    mutationFn: (body: Schemas['UpdateBrokerRequest']) =>
      must(
        api.PATCH('/tenants/{tenant}/brokers/{broker}', {
          params: { path: { tenant, broker: number } },
          body,
        }),
      ),
    onSuccess: () => {
      notice.success('Gespeichert.');
      void queries.invalidateQueries({ queryKey: ['broker', tenant, number] });
      void queries.invalidateQueries({ queryKey: ['brokers', tenant] });
    },
    onError: notice.failure,
  });
  return { change, notice: notice.notice };
}

function BrokerData({ tenant, broker }: { tenant: string; broker: Broker }) {
  const { change, notice } = useBrokerChange(tenant, broker.number);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parent = formText(form, 'parent').trim() || null;
    change.mutate({
      name: formText(form, 'name'),
      ...(parent !== broker.parent ? { parent } : {}),
    });
  };
  return (
    <section aria-labelledby="broker-data">
      <h2 id="broker-data">Stammdaten</h2>
      <p>
        Status: <strong>{broker.blocked ? 'gesperrt' : 'aktiv'}</strong> ·{' '}
        {broker.parent ? `unter ${broker.parent} (${broker.parent_name ?? ''})` : 'oberste Ebene'} ·{' '}
        {broker.sub_broker_count} Untervermittler
      </p>
      <form className="inline-form" onSubmit={submit} key={`${broker.name}|${broker.parent ?? ''}`}>
        <label>
          Name <input name="name" defaultValue={broker.name} required autoComplete="off" />
        </label>
        <label>
          Übergeordneter Makler (leer: oberste Ebene){' '}
          <input name="parent" defaultValue={broker.parent ?? ''} autoComplete="off" />
        </label>
        <button type="submit" disabled={change.isPending}>
          Speichern
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => change.mutate({ blocked: !broker.blocked })}
        >
          {broker.blocked ? 'Makler entsperren' : 'Makler sperren'}
        </button>
        <NoticeLine notice={notice} />
      </form>
    </section>
  );
}

function Employees({ tenant, broker }: { tenant: string; broker: Broker }) {
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const create = useMutation({
    mutationFn: (body: Schemas['CreateEmployeeRequest']) =>
      must(
        api.POST('/tenants/{tenant}/brokers/{broker}/employees', {
          params: { path: { tenant, broker: broker.number } },
          body,
        }),
      ),
    onSuccess: (employee) => {
      success(`Mitarbeiter ${employee.number} angelegt.`);
      void queries.invalidateQueries({ queryKey: ['broker', tenant, broker.number] });
    },
    onError: failure,
  });
  const submit = submitHandler(
    (form) => ({
      number: formText(form, 'number'),
      name: formText(form, 'name'),
      email: formText(form, 'email').trim() || null,
    }),
    create.mutate,
  );
  return (
    <section aria-labelledby="employees">
      <h2 id="employees">Mitarbeiter ({broker.employee_count})</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Nummer</th>
            <th scope="col">Name</th>
            <th scope="col">E-Mail</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {broker.employees.map((employee) => (
            <tr key={employee.number}>
              <td>{employee.number}</td>
              <td>{employee.name}</td>
              <td>{employee.email ?? '–'}</td>
              <td>{employee.disabled ? 'deaktiviert' : 'aktiv'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {broker.employee_count > broker.employees.length && (
        <p className="muted">
          Die ersten {broker.employees.length} von {broker.employee_count} Mitarbeitern.
        </p>
      )}
      <form className="inline-form" onSubmit={submit} aria-label="Mitarbeiter anlegen">
        <label>
          Mitarbeiternummer <input name="number" required autoComplete="off" />
        </label>
        <label>
          Name <input name="name" required autoComplete="off" />
        </label>
        <label>
          E-Mail <input name="email" type="email" autoComplete="off" />
        </label>
        <button type="submit" disabled={create.isPending}>
          Mitarbeiter anlegen
        </button>
        <NoticeLine notice={notice} />
      </form>
    </section>
  );
}

interface ShownKey {
  title: string;
  apiId: string;
  apiKey: string;
  otpUri: string;
}

function ApiClients({ tenant, broker }: { tenant: string; broker: Broker }) {
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const [shown, setShown] = useState<ShownKey | null>(null);
  const refresh = () => void queries.invalidateQueries({ queryKey: ['broker', tenant, broker.number] });
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/tenants/{tenant}/brokers/{broker}/api-clients', {
          params: { path: { tenant, broker: broker.number } },
          body: {},
        }),
      ),
    onSuccess: (client) => {
      setShown({
        title: 'Neuer API-Zugang',
        apiId: client.api_id,
        apiKey: client.api_key,
        otpUri: client.otp_uri,
      });
      refresh();
    },
    onError: failure,
  });
  const rotate = useMutation({
    mutationFn: (apiId: string) =>
      must(api.POST('/tenants/{tenant}/api-clients/{apiId}/key', { params: { path: { tenant, apiId } } })),
    onSuccess: (rotated, apiId) => {
      setShown({ title: 'Neuer Schlüssel', apiId, apiKey: rotated.api_key, otpUri: rotated.otp_uri });
      refresh();
    },
    onError: failure,
  });
  const block = useMutation({
    mutationFn: ({ apiId, blocked }: { apiId: string; blocked: boolean }) =>
      must(
        api.PATCH('/tenants/{tenant}/api-clients/{apiId}', {
          params: { path: { tenant, apiId } },
          body: { blocked },
        }),
      ),
    onSuccess: (client) => {
      success(client.blocked ? `${client.api_id} gesperrt.` : `${client.api_id} entsperrt.`);
      refresh();
    },
    onError: failure,
  });
  return (
    <section aria-labelledby="api-clients">
      <h2 id="api-clients">API-Zugänge ({broker.api_client_count})</h2>
      {shown && <CredentialOnce {...shown} onDismiss={() => setShown(null)} />}
      <table>
        <thead>
          <tr>
            <th scope="col">API-ID</th>
            <th scope="col">Schlüssel seit</th>
            <th scope="col">Alter Schlüssel gültig bis</th>
            <th scope="col">Status</th>
            <th scope="col">Aktionen</th>
          </tr>
        </thead>
        <tbody>
          {broker.api_clients.map((client) => (
            <tr key={client.api_id}>
              <td>
                <code>{client.api_id}</code>
              </td>
              <td>{new Date(client.key_created_at).toLocaleString('de-DE')}</td>
              <td>
                {client.previous_key_valid_until
                  ? new Date(client.previous_key_valid_until).toLocaleString('de-DE')
                  : '–'}
              </td>
              <td>{client.blocked ? 'gesperrt' : 'aktiv'}</td>
              <td>
                <button type="button" className="secondary" onClick={() => rotate.mutate(client.api_id)}>
                  Schlüssel erneuern<span className="visually-hidden"> für {client.api_id}</span>
                </button>{' '}
                <button
                  type="button"
                  className="secondary"
                  onClick={() => block.mutate({ apiId: client.api_id, blocked: !client.blocked })}
                >
                  {client.blocked ? 'Entsperren' : 'Sperren'}
                  <span className="visually-hidden"> {client.api_id}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>
          API-Zugang anlegen
        </button>
      </p>
      <NoticeLine notice={notice} />
    </section>
  );
}
