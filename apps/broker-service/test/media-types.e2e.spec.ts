import { BASE, BROKER_BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import { answerParts, asBuffer, multipartBody, multipartType, part } from './multipart.js';

/** A JSON body sent as another media type (or none) is a 415, and nothing is written. */
describe('broker service: bodies of another media type than JSON', () => {
  let service: EmployeeTestService;
  beforeAll(async () => {
    service = await startEmployeeTestService();
  });
  afterAll(() => service?.close());

  const customerPath = () => service.employeePath(`/kunden/${service.customers.v1000Customer}`);
  const surname = async () =>
    (
      await service.db.query<{ last_name: string }>('SELECT last_name FROM broker.customer WHERE id = $1', [
        service.customers.v1000Customer,
      ])
    ).rows[0]?.last_name;
  const brokerCity = async () =>
    (
      await service.db.query<{ city: string | null }>(
        "SELECT city FROM broker.broker WHERE broker_number = 'V1003'",
      )
    ).rows[0]?.city;

  it.each([['text/plain'], ['application/xml'], [undefined]])(
    'answers setKunde and updateUntervermittler sent as %s with 415, changing nothing',
    async (contentType) => {
      const before = { surname: await surname(), city: await brokerCity() };
      const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
      const what = contentType ? `Content-Type ${contentType}` : 'no Content-Type';
      const put = service.call('put', customerPath(), { headers });
      const patch = service.call('patch', `${BROKER_BASE}/vermittler/V1003`, { headers });
      for (const [test, body] of [
        [put, { Person: { Typ: 'natuerlich', Nachname: 'Geaendert' } }],
        [patch, { Adresse: { Ort: 'Anderswo' } }],
      ] as const) {
        // Bytes: superagent gives a string body a form Content-Type of its own, a Buffer none.
        const response = await test.send(Buffer.from(JSON.stringify(body))).expect(415);
        expect(response.body).toEqual({
          Meldungen: [`The body has ${what}; this operation takes application/json`],
        });
      }
      expect({ surname: await surname(), city: await brokerCity() }).toEqual(before);
    },
  );

  it('answers a multi-call part of another media type with its own 415, and runs the others', async () => {
    const response = await asBuffer(
      service
        .call('post', BASE)
        .set('Content-Type', multipartType())
        .send(
          multipartBody([
            part(
              '<part-1>',
              'PUT',
              customerPath().slice(BASE.length),
              JSON.stringify({ Person: { Nachname: 'Teil' } }),
              {
                'Content-Type': 'text/plain',
              },
            ),
            part('<part-2>', 'GET', '/laender'),
          ]),
        ),
    ).expect(200);
    const [refused, countries] = answerParts(
      String(response.headers['content-type']),
      response.body as Buffer,
    );
    expect(refused?.status).toBe(415);
    expect(countries?.status).toBe(200);
    expect(await surname()).not.toBe('Teil');
  });
});
