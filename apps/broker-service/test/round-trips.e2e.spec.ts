import { BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

/**
 * What a read answers goes back to the matching write with one field changed, as a portal that edits a form
 * sends it (read-only fields, links and nulls included): the write takes it with 200 and changes that field only
 * (its answer may carry more, as the detail's Uri).
 * Every body is also checked against the served document (jest setup), so the documents accept these bodies too.
 */
describe('broker service: reads sent back to their writes with one field changed', () => {
  let service: EmployeeTestService;
  let customer: string;
  const path = (rest: string) => service.employeePath(rest);

  beforeAll(async () => {
    service = await startEmployeeTestService();
    customer = service.customers.v1000Customer;
    await service.db.query(
      `INSERT INTO broker.customer_detail_definition (tenant_id, broker_id, detail_key, name, value_type, options)
       SELECT tenant_id, id, 'hobby', 'Hobby', 'text', NULL FROM broker.broker WHERE broker_number = 'V1000'`,
    );
  });
  afterAll(() => service?.close());

  /** GET `read`, change it with `change`, send it with `method` to `write`; the answer and the read after. */
  async function roundTrip<View extends object>(
    read: string,
    change: (view: View) => View,
    method: 'put' | 'patch' = 'put',
    write = read,
  ): Promise<{ sent: View; answered: object; readAfter: unknown }> {
    const before = (await service.call('get', read).expect(200)).body as View;
    const sent = change(before);
    const answered = (await service.call(method, write, { body: sent }).expect(200)).body as object;
    const readAfter = (await service.call('get', read).expect(200)).body as unknown;
    return { sent, answered, readAfter };
  }

  it('takes back a customer (setKunde) with the person’s occupation changed', async () => {
    type Kunde = { Person: Record<string, unknown> } & Record<string, unknown>;
    const { sent, answered, readAfter } = await roundTrip<Kunde>(path(`/kunden/${customer}`), (kunde) => ({
      ...kunde,
      Person: { ...kunde.Person, Beruf: 'Lotse' },
    }));
    expect(answered).toMatchObject(sent);
    expect(readAfter).toEqual(sent);
  });

  it('takes back an address (setKundenAdresse) with the city changed', async () => {
    await service
      .call('put', path(`/kunden/${customer}/adressen/0`), {
        body: { Strasse: 'Am Deich 1', Postleitzahl: '27568', Ort: 'Bremen' },
      })
      .expect(200);
    const { sent, answered, readAfter } = await roundTrip<Record<string, unknown>>(
      path(`/kunden/${customer}/adressen/0`),
      (address) => ({ ...address, Ort: 'Bremerhaven' }),
    );
    expect(answered).toMatchObject(sent);
    expect(readAfter).toEqual(sent);
  });

  it('takes back a contact entry (setKundenKontaktdatensatz) with the value changed', async () => {
    const created = await service
      .call('post', path(`/kunden/${customer}/kontaktdaten`), {
        body: { Kontext: 'privat', Typ: 'telefon', Value: '0421 1' },
      })
      .expect(200);
    const { sent, answered, readAfter } = await roundTrip<Record<string, unknown>>(
      (created.body as { Uri: string }).Uri,
      (entry) => ({ ...entry, Value: '0421 2' }),
    );
    expect(answered).toMatchObject(sent);
    expect(readAfter).toEqual(sent);
  });

  it('takes back a customer detail (setKundendetail) with the value changed', async () => {
    const detail = path(`/kunden/${customer}/details/hobby`);
    await service.call('put', detail, { body: { Value: 'Segeln' } }).expect(200);
    const { sent, answered, readAfter } = await roundTrip<Record<string, unknown>>(detail, (read) => ({
      ...read,
      Value: 'Rudern',
    }));
    expect(answered).toMatchObject(sent);
    expect(readAfter).toEqual(sent);
  });

  it('takes back a sub-broker (updateUntervermittler) with the name changed', async () => {
    const { sent, answered, readAfter } = await roundTrip<Record<string, unknown>>(
      `${BROKER_BASE}/vermittler/V1003`,
      (broker) => ({ ...broker, Name: 'Umbenannt GmbH' }),
      'patch',
    );
    expect(answered).toMatchObject(sent);
    expect(readAfter).toEqual(sent);
  });
});
