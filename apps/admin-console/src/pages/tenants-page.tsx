import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { formText, submitHandler } from '../components/form-text';
import { api, must } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { PageTitle } from '../components/page-title';
import { PAGE_SIZE, Pager } from '../components/pager';
import { useSession } from '../session';

/** The pool's tenants (operators only): list and create. */
export function TenantsPage() {
  const session = useSession();
  const [offset, setOffset] = useState(0);
  const tenants = useQuery({
    queryKey: ['tenants', offset],
    queryFn: () => must(api.GET('/tenants', { params: { query: { offset, limit: PAGE_SIZE } } })),
    enabled: session.role === 'operator',
  });
  if (session.role !== 'operator')
    return (
      <>
        <PageTitle>Mandanten</PageTitle>
        <p>Nur Betreiber der Plattform sehen die Mandanten.</p>
      </>
    );
  return (
    <>
      <PageTitle>Mandanten</PageTitle>
      <CreateTenant />
      <h2>Alle Mandanten</h2>
      {tenants.isError && <p role="alert">Die Mandanten können nicht geladen werden.</p>}
      <table>
        <caption className="visually-hidden">Mandanten der Plattform</caption>
        <thead>
          <tr>
            <th scope="col">Kennung</th>
            <th scope="col">Name</th>
            <th scope="col">Angelegt</th>
          </tr>
        </thead>
        <tbody>
          {tenants.data?.items.map((tenant) => (
            <tr key={tenant.id}>
              <td>
                <Link to={`/t/${encodeURIComponent(tenant.id)}/brokers`}>{tenant.id}</Link>
              </td>
              <td>{tenant.name}</td>
              <td>{new Date(tenant.created_at).toLocaleString('de-DE')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="Mandanten" offset={offset} total={tenants.data?.total ?? 0} onOffset={setOffset} />
    </>
  );
}

function CreateTenant() {
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const create = useMutation({
    mutationFn: (body: { id: string; name: string }) => must(api.POST('/tenants', { body })),
    onSuccess: (tenant) => {
      success(`Mandant ${tenant.id} angelegt.`);
      void queries.invalidateQueries({ queryKey: ['tenants'] });
    },
    onError: failure,
  });
  const submit = submitHandler(
    (form) => ({ id: formText(form, 'id'), name: formText(form, 'name') }),
    create.mutate,
  );
  return (
    <form className="inline-form" onSubmit={submit} aria-labelledby="create-tenant">
      <h2 id="create-tenant">Mandant anlegen</h2>
      <label>
        Kennung <input name="id" required autoComplete="off" />
      </label>
      <label>
        Name <input name="name" required autoComplete="off" />
      </label>
      <button type="submit" disabled={create.isPending}>
        Mandant anlegen
      </button>
      <NoticeLine notice={notice} />
    </form>
  );
}
