import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, must, type Schemas } from '../api';
import { formText, submitHandler } from '../components/form-text';
import { NoticeLine, useNotice } from '../components/notice';
import { PageTitle } from '../components/page-title';
import { PAGE_SIZE, Pager } from '../components/pager';

/** The tenant's insurers (VU numbers) and its brokers' agreements with them (agency numbers). */
export function CompaniesPage() {
  const tenant = useParams().tenant!;
  return (
    <>
      <PageTitle>Versicherer und Vereinbarungen des Mandanten {tenant}</PageTitle>
      <Companies tenant={tenant} />
      <Agreements tenant={tenant} />
    </>
  );
}

function Companies({ tenant }: { tenant: string }) {
  const [offset, setOffset] = useState(0);
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const companies = useQuery({
    queryKey: ['companies', tenant, offset],
    queryFn: () =>
      must(
        api.GET('/tenants/{tenant}/companies', {
          params: { path: { tenant }, query: { offset, limit: PAGE_SIZE } },
        }),
      ),
  });
  const create = useMutation({
    mutationFn: (body: Schemas['CreateCompanyRequest']) =>
      must(api.POST('/tenants/{tenant}/companies', { params: { path: { tenant } }, body })),
    onSuccess: (company) => {
      success(`Versicherer ${company.vu_number} angelegt.`);
      void queries.invalidateQueries({ queryKey: ['companies', tenant] });
    },
    onError: failure,
  });
  return (
    <section aria-labelledby="companies">
      <h2 id="companies">Versicherer</h2>
      <form
        className="inline-form"
        aria-label="Versicherer anlegen"
        onSubmit={submitHandler(
          (form) => ({ vu_number: formText(form, 'vu_number'), name: formText(form, 'name') }),
          create.mutate,
        )}
      >
        <label>
          VU-Nummer <input name="vu_number" required autoComplete="off" />
        </label>
        <label>
          Name <input name="name" required autoComplete="off" />
        </label>
        <button type="submit" disabled={create.isPending}>
          Versicherer anlegen
        </button>
        <NoticeLine notice={notice} />
      </form>
      <table>
        <thead>
          <tr>
            <th scope="col">VU-Nummer</th>
            <th scope="col">Name</th>
          </tr>
        </thead>
        <tbody>
          {companies.data?.items.map((company) => (
            <tr key={company.vu_number}>
              <td>{company.vu_number}</td>
              <td>{company.name}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="Versicherer" offset={offset} total={companies.data?.total ?? 0} onOffset={setOffset} />
    </section>
  );
}

function Agreements({ tenant }: { tenant: string }) {
  const [offset, setOffset] = useState(0);
  const [broker, setBroker] = useState('');
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const filter = broker.trim() ? { broker: broker.trim() } : {};
  const agreements = useQuery({
    queryKey: ['agreements', tenant, filter, offset],
    queryFn: () =>
      must(
        api.GET('/tenants/{tenant}/agreements', {
          params: { path: { tenant }, query: { ...filter, offset, limit: PAGE_SIZE } },
        }),
      ),
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['agreements', tenant] });
  const create = useMutation({
    mutationFn: (body: Schemas['CreateCompanyAgreementRequest']) =>
      must(api.POST('/tenants/{tenant}/agreements', { params: { path: { tenant } }, body })),
    onSuccess: (agreement) => {
      success(`Vereinbarung ${agreement.broker} / ${agreement.vu_number} gespeichert.`);
      refresh();
    },
    onError: failure,
  });
  const remove = useMutation({
    mutationFn: (agreement: { broker: string; vu_number: string }) =>
      must(
        api.DELETE('/tenants/{tenant}/agreements/{broker}/{vuNumber}', {
          params: { path: { tenant, broker: agreement.broker, vuNumber: agreement.vu_number } },
        }),
      ),
    onSuccess: (_answer, agreement) => {
      success(`Vereinbarung ${agreement.broker} / ${agreement.vu_number} gelöscht.`);
      refresh();
    },
    onError: failure,
  });
  return (
    <section aria-labelledby="agreements">
      <h2 id="agreements">Vereinbarungen</h2>
      <form
        className="inline-form"
        aria-label="Vereinbarung anlegen"
        onSubmit={submitHandler(
          (form) => ({
            broker: formText(form, 'broker'),
            vu_number: formText(form, 'vu_number'),
            agency_number: formText(form, 'agency_number').trim() || null,
          }),
          create.mutate,
        )}
      >
        <label>
          Maklernummer <input name="broker" required autoComplete="off" />
        </label>
        <label>
          VU-Nummer <input name="vu_number" required autoComplete="off" />
        </label>
        <label>
          Agenturnummer <input name="agency_number" autoComplete="off" />
        </label>
        <button type="submit" disabled={create.isPending}>
          Vereinbarung anlegen
        </button>
        <NoticeLine notice={notice} />
      </form>
      <p>
        <label>
          Nur Makler <input value={broker} onChange={(event) => setBroker(event.target.value)} />
        </label>
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Makler</th>
            <th scope="col">VU-Nummer</th>
            <th scope="col">Agenturnummer</th>
            <th scope="col">Aktionen</th>
          </tr>
        </thead>
        <tbody>
          {agreements.data?.items.map((agreement) => (
            <tr key={`${agreement.broker}/${agreement.vu_number}`}>
              <td>{agreement.broker}</td>
              <td>{agreement.vu_number}</td>
              <td>{agreement.agency_number ?? '–'}</td>
              <td>
                <button type="button" className="secondary" onClick={() => remove.mutate(agreement)}>
                  Löschen
                  <span className="visually-hidden">
                    {' '}
                    {agreement.broker} / {agreement.vu_number}
                  </span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        label="Vereinbarungen"
        offset={offset}
        total={agreements.data?.total ?? 0}
        onOffset={setOffset}
      />
    </section>
  );
}
