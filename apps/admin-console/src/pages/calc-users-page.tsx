import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, must, type Schemas } from '../api';
import { formText, submitHandler } from '../components/form-text';
import { NoticeLine, useNotice } from '../components/notice';
import { PageTitle } from '../components/page-title';
import { PAGE_SIZE, Pager } from '../components/pager';

/** The users comparison calculators log in with (area B): create, disable, enable, new password. */
export function CalcUsersPage() {
  const tenant = useParams().tenant!;
  const [offset, setOffset] = useState(0);
  const queries = useQueryClient();
  const { notice, success, failure } = useNotice();
  const users = useQuery({
    queryKey: ['calc-users', tenant, offset],
    queryFn: () =>
      must(
        api.GET('/tenants/{tenant}/calc-users', {
          params: { path: { tenant }, query: { offset, limit: PAGE_SIZE } },
        }),
      ),
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['calc-users', tenant] });
  const create = useMutation({
    mutationFn: (body: Schemas['CreateCalcUserRequest']) =>
      must(api.POST('/tenants/{tenant}/calc-users', { params: { path: { tenant } }, body })),
    onSuccess: (user) => {
      success(`Rechner-Zugang ${user.username} angelegt.`);
      refresh();
    },
    onError: failure,
  });
  const change = useMutation({
    mutationFn: ({ username, ...body }: Schemas['UpdateCalcUserRequest'] & { username: string }) =>
      must(
        api.PATCH('/tenants/{tenant}/calc-users/{username}', {
          params: { path: { tenant, username } },
          body,
        }),
      ),
    onSuccess: (user, request) => {
      success(
        request.password ? `Neues Passwort für ${user.username} gesetzt.` : `${user.username} gespeichert.`,
      );
      refresh();
    },
    onError: failure,
  });
  return (
    <>
      <PageTitle>Rechner-Zugänge des Mandanten {tenant}</PageTitle>
      <form
        className="inline-form"
        aria-labelledby="create-calc-user"
        onSubmit={submitHandler(
          (form) => ({ username: formText(form, 'username'), password: formText(form, 'password') }),
          create.mutate,
        )}
      >
        <h2 id="create-calc-user">Zugang anlegen</h2>
        <label>
          Benutzername <input name="username" required autoComplete="off" />
        </label>
        <label>
          Passwort <input name="password" type="password" required autoComplete="new-password" />
        </label>
        <button type="submit" disabled={create.isPending}>
          Zugang anlegen
        </button>
      </form>
      <form
        className="inline-form"
        aria-labelledby="set-calc-password"
        onSubmit={submitHandler(
          (form) => ({ username: formText(form, 'username'), password: formText(form, 'password') }),
          change.mutate,
        )}
      >
        <h2 id="set-calc-password">Neues Passwort setzen</h2>
        <label>
          Benutzername <input name="username" required autoComplete="off" />
        </label>
        <label>
          Neues Passwort <input name="password" type="password" required autoComplete="new-password" />
        </label>
        <button type="submit" disabled={change.isPending}>
          Passwort setzen
        </button>
      </form>
      <NoticeLine notice={notice} />
      <h2>Alle Zugänge</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Benutzername</th>
            <th scope="col">Status</th>
            <th scope="col">Geändert</th>
            <th scope="col">Aktionen</th>
          </tr>
        </thead>
        <tbody>
          {users.data?.items.map((user) => (
            <tr key={user.username}>
              <td>{user.username}</td>
              <td>{user.disabled ? 'deaktiviert' : 'aktiv'}</td>
              <td>{new Date(user.updated_at).toLocaleString('de-DE')}</td>
              <td>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => change.mutate({ username: user.username, disabled: !user.disabled })}
                >
                  {user.disabled ? 'Aktivieren' : 'Deaktivieren'}
                  <span className="visually-hidden"> {user.username}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="Rechner-Zugänge" offset={offset} total={users.data?.total ?? 0} onOffset={setOffset} />
    </>
  );
}
