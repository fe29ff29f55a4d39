import { useMutation } from '@tanstack/react-query';
import { type ChangeEvent, useState } from 'react';
import { useParams } from 'react-router';
import { ApiFailure, api, type Schemas } from '../api';
import { PageTitle } from '../components/page-title';

type Kind = Schemas['MasterDataKind'];
type Result = Schemas['MasterDataResult'];
type Change = Schemas['MasterDataChange'];

const OUTCOME_LABELS: Record<Schemas['MasterDataRowOutcome']['outcome'], string> = {
  created: 'neu',
  updated: 'geändert',
  unchanged: 'unverändert',
};

const cellText = (value: Change['from']) => (value === null ? '(leer)' : String(value));

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'brokers', label: 'Makler' },
  { kind: 'employees', label: 'Mitarbeiter' },
  { kind: 'companies', label: 'Versicherer' },
  { kind: 'agreements', label: 'Vereinbarungen' },
];

/** importMasterData: the answer, also when the service refused the file's lines (422, nothing written). */
async function importMasterData(tenant: string, kind: Kind, csv: string, dryRun: boolean): Promise<Result> {
  const { data, error, response } = await api.POST('/tenants/{tenant}/master-data/{kind}', {
    params: { path: { tenant, kind }, query: { dry_run: dryRun ? 'true' : 'false' } },
    body: csv,
    bodySerializer: (body: string) => body,
    headers: { 'Content-Type': 'text/csv; charset=utf-8' },
  });
  if (data) return data;
  if (response.status === 422) return error as unknown as Result;
  const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : '';
  throw new ApiFailure(response.status, message || response.statusText);
}

/**
 * A master-data file (CSV) for the tenant: first a dry run shows what it would create, update and leave unchanged,
 * and every bad line; the real import is offered only for the file just previewed without bad lines.
 */
export function MasterDataPage() {
  const tenant = useParams().tenant!;
  const [kind, setKind] = useState<Kind>('brokers');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [preview, setPreview] = useState<Result | null>(null);
  const [imported, setImported] = useState<Result | null>(null);
  const run = useMutation({
    mutationFn: ({ dryRun }: { dryRun: boolean }) => importMasterData(tenant, kind, file!.text, dryRun),
    onSuccess: (result) => (result.dry_run ? setPreview(result) : setImported(result)),
  });
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setPreview(null);
    setImported(null);
    setFile(chosen ? { name: chosen.name, text: await chosen.text() } : null);
  };
  const changeKind = (next: Kind) => {
    setKind(next);
    setPreview(null);
    setImported(null);
  };
  return (
    <>
      <PageTitle>Stammdaten hochladen ({tenant})</PageTitle>
      <form className="inline-form" onSubmit={(event) => event.preventDefault()}>
        <label>
          Art der Datei{' '}
          <select value={kind} onChange={(event) => changeKind(event.target.value as Kind)}>
            {KINDS.map((option) => (
              <option key={option.kind} value={option.kind}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          CSV-Datei <input type="file" accept=".csv,text/csv" onChange={(event) => void choose(event)} />
        </label>
        <button type="button" disabled={!file || run.isPending} onClick={() => run.mutate({ dryRun: true })}>
          Vorschau (Probelauf)
        </button>
        <button
          type="button"
          disabled={!preview || preview.errors.length > 0 || imported !== null || run.isPending}
          onClick={() => run.mutate({ dryRun: false })}
        >
          Jetzt importieren
        </button>
      </form>
      <div role="status" aria-live="polite">
        {run.isError && (
          <p className="notice error">
            Fehler: {run.error instanceof ApiFailure ? run.error.message : 'keine Antwort des Dienstes'}
          </p>
        )}
        {preview && <ResultView title={`Vorschau für ${file?.name ?? ''}`} result={preview} />}
        {imported && <ResultView title="Importiert" result={imported} />}
      </div>
    </>
  );
}

function ResultView({ title, result }: { title: string; result: Result }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      <table className="counts">
        <tbody>
          <tr>
            <th scope="row">Neu</th>
            <td>{result.created}</td>
          </tr>
          <tr>
            <th scope="row">Geändert</th>
            <td>{result.updated}</td>
          </tr>
          <tr>
            <th scope="row">Unverändert</th>
            <td>{result.unchanged}</td>
          </tr>
          <tr>
            <th scope="row">Fehlerhafte Zeilen</th>
            <td>{result.errors.length}</td>
          </tr>
        </tbody>
      </table>
      <RowsView result={result} />
      {result.errors.length > 0 && (
        <>
          <p>Die Datei wird erst importiert, wenn keine Zeile fehlerhaft ist.</p>
          <table>
            <caption>Fehlerhafte Zeilen</caption>
            <thead>
              <tr>
                <th scope="col">Zeile</th>
                <th scope="col">Fehler</th>
              </tr>
            </thead>
            <tbody>
              {result.errors.map((error) => (
                <tr key={`${error.line}:${error.message}`}>
                  <td>{error.line}</td>
                  <td>{error.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** What each good row of the file does: new, changed (each column from its stored value to the file's) or unchanged. */
function RowsView({ result }: { result: Result }) {
  if (result.rows.length === 0) return null;
  return (
    <table>
      <caption>Zeilen der Datei</caption>
      <thead>
        <tr>
          <th scope="col">Zeile</th>
          <th scope="col">Schlüssel</th>
          <th scope="col">Ergebnis</th>
          <th scope="col">Änderungen</th>
        </tr>
      </thead>
      <tbody>
        {result.rows.map((row) => (
          <tr key={row.line}>
            <td>{row.line}</td>
            <td>{row.key}</td>
            <td>{OUTCOME_LABELS[row.outcome]}</td>
            <td>
              {row.changes.map((change) => (
                <div key={change.column}>
                  {change.column}: {cellText(change.from)} → {cellText(change.to)}
                </div>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
      {result.rows_not_listed > 0 && (
        <tfoot>
          <tr>
            <td colSpan={4}>{result.rows_not_listed} weitere Zeilen sind gezählt, aber nicht aufgeführt.</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
