import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formText, submitHandler } from '../components/form-text';
import { api, must, type Schemas } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { PageTitle } from '../components/page-title';
import { PAGE_SIZE, Pager } from '../components/pager';

type Broker = Schemas['BrokerView'];
type Sort = 'number' | '-number' | 'name' | '-name' | 'updated_at' | '-updated_at';

/**
 * A tenant's brokers as a tree (the top, each broker's sub-brokers on demand) or, with a search, as a flat list of
 * matches; paged and sorted by the service. Creates brokers and sub-brokers, blocks and unblocks.
 */
export function BrokersPage() {
  const tenant = useParams().tenant!;
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>('number');
  const [parentForNew, setParentForNew] = useState('');
  const createBelow = (parent: string) => {
    setParentForNew(parent);
    document.getElementById('new-broker-number')?.focus();
  };
  return (
    <>
      <PageTitle>Makler des Mandanten {tenant}</PageTitle>
      <CreateBroker tenant={tenant} parent={parentForNew} onParent={setParentForNew} />
      <h2>Maklerbaum</h2>
      <form className="inline-form" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Suche nach Nummer oder Name{' '}
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <label>
          Sortierung{' '}
          <select value={sort} onChange={(event) => setSort(event.target.value as Sort)}>
            <option value="number">Nummer aufsteigend</option>
            <option value="-number">Nummer absteigend</option>
            <option value="name">Name aufsteigend</option>
            <option value="-name">Name absteigend</option>
            <option value="-updated_at">Zuletzt geändert</option>
          </select>
        </label>
      </form>
      <BrokerLevel
        tenant={tenant}
        filter={search.trim() ? { q: search.trim() } : { parent: '-' }}
        sort={sort}
        depth={0}
        onCreateBelow={createBelow}
      />
    </>
  );
}

function BrokerLevel({
  tenant,
  filter,
  sort,
  depth,
  onCreateBelow,
}: {
  tenant: string;
  filter: { q: string } | { parent: string };
  sort: Sort;
  depth: number;
  onCreateBelow: (parent: string) => void;
}) {
  const [offset, setOffset] = useState(0);
  const brokers = useQuery({
    queryKey: ['brokers', tenant, filter, sort, offset],
    queryFn: () =>
      must(
        api.GET('/tenants/{tenant}/brokers', {
          params: { path: { tenant }, query: { ...filter, sort, offset, limit: PAGE_SIZE } },
        }),
      ),
  });
  if (brokers.isError) return <p role="alert">Die Makler können nicht geladen werden.</p>;
  if (brokers.data?.items.length === 0)
    return <p>{'q' in filter ? 'Kein Makler passt zur Suche.' : 'Keine Makler.'}</p>;
  return (
    <>
      <ul className={depth === 0 ? 'tree' : 'tree-level'} aria-label={depth === 0 ? 'Makler' : undefined}>
        {brokers.data?.items.map((broker) => (
          <BrokerNode
            key={broker.number}
            tenant={tenant}
            broker={broker}
            sort={sort}
            depth={depth}
            showParent={'q' in filter}
            onCreateBelow={onCreateBelow}
          />
        ))}
      </ul>
      <Pager label="Makler" offset={offset} total={brokers.data?.total ?? 0} onOffset={setOffset} />
    </>
  );
}

function BrokerNode({
  tenant,
  broker,
  sort,
  depth,
  showParent,
  onCreateBelow,
}: {
  tenant: string;
  broker: Broker;
  sort: Sort;
  depth: number;
  showParent: boolean;
  onCreateBelow: (parent: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const block = useMutation({
    mutationFn: (blocked: boolean) =>
      must(
        api.PATCH('/tenants/{tenant}/brokers/{broker}', {
          params: { path: { tenant, broker: broker.number } },
          body: { blocked },
        }),
      ),
    onSuccess: (changed) => {
      success(changed.blocked ? `${changed.number} gesperrt.` : `${changed.number} entsperrt.`);
      void queries.invalidateQueries({ queryKey: ['brokers', tenant] });
    },
    onError: failure,
  });
  const children = `sub-${broker.number}`;
  return (
    <li>
      <div className="broker-row">
        {broker.sub_broker_count > 0 ? (
          <button
            type="button"
            className="toggle"
            aria-expanded={open}
            aria-controls={children}
            onClick={() => setOpen(!open)}
          >
            {open ? '−' : '+'}
            <span className="visually-hidden">
              {open ? ' Untervermittler ausblenden' : ' Untervermittler anzeigen'}: {broker.number}
            </span>
          </button>
        ) : (
          <span className="toggle-space" aria-hidden="true" />
        )}
        <Link to={`/t/${encodeURIComponent(tenant)}/brokers/${encodeURIComponent(broker.number)}`}>
          {broker.number}
        </Link>
        <span>{broker.name}</span>
        {showParent && broker.parent && <span className="muted">unter {broker.parent}</span>}
        <span className="muted">{broker.sub_broker_count} Untervermittler</span>
        {broker.blocked && <span className="badge">gesperrt</span>}
        <button type="button" className="secondary" onClick={() => onCreateBelow(broker.number)}>
          Untervermittler anlegen<span className="visually-hidden"> unter {broker.number}</span>
        </button>
        <button type="button" className="secondary" onClick={() => block.mutate(!broker.blocked)}>
          {broker.blocked ? 'Entsperren' : 'Sperren'}
          <span className="visually-hidden"> {broker.number}</span>
        </button>
        <NoticeLine notice={notice} />
      </div>
      {open && (
        <div id={children}>
          <BrokerLevel
            tenant={tenant}
            filter={{ parent: broker.number }}
            sort={sort}
            depth={depth + 1}
            onCreateBelow={onCreateBelow}
          />
        </div>
      )}
    </li>
  );
}

function CreateBroker({
  tenant,
  parent,
  onParent,
}: {
  tenant: string;
  parent: string;
  onParent: (parent: string) => void;
}) {
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const create = useMutation({
    mutationFn: (body: Schemas['CreateBrokerRequest']) =>
      must(api.POST('/tenants/{tenant}/brokers', { params: { path: { tenant } }, body })),
    onSuccess: (broker) => {
      success(`Makler ${broker.number} angelegt${broker.parent ? ` unter ${broker.parent}` : ''}.`);
      onParent('');
      void queries.invalidateQueries({ queryKey: ['brokers', tenant] });
    },
    onError: failure,
  });
  const submit = submitHandler(
    (form) => ({
      number: formText(form, 'number'),
      name: formText(form, 'name'),
      parent: parent.trim() || null,
    }),
    create.mutate,
  );
  return (
    <form className="inline-form" onSubmit={submit} aria-labelledby="create-broker">
      <h2 id="create-broker">Makler anlegen</h2>
      <label>
        Maklernummer <input id="new-broker-number" name="number" required autoComplete="off" />
      </label>
      <label>
        Name <input name="name" required autoComplete="off" />
      </label>
      <label>
        Übergeordneter Makler (leer: oberste Ebene){' '}
        <input
          name="parent"
          value={parent}
          onChange={(event) => onParent(event.target.value)}
          autoComplete="off"
        />
      </label>
      <button type="submit" disabled={create.isPending}>
        Makler anlegen
      </button>
      <NoticeLine notice={notice} />
    </form>
  );
}
