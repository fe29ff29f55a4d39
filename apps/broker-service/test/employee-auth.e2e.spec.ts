import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { svcDigest, svcOtp } from '@broker/auth';
import { FIXTURE_API_CLIENTS, svcDigestHeaders, svcOtpHeaders } from './employee-fixture.js';
import { BASE, type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

const { main, other, blockedBroker, blockedClient } = FIXTURE_API_CLIENTS;

describe('employee service authentication (header group)', () => {
  let service: EmployeeTestService;
  beforeAll(async () => {
    service = await startEmployeeTestService();
  });
  afterAll(() => service?.close());

  const get = (headers: Record<string, string>, path = `${BASE}/anreden`) =>
    request(service.app.getHttpServer() as App)
      .get(path)
      .set(headers);

  it('accepts a good digest and a good one-time password', async () => {
    await get(svcDigestHeaders(main)).expect(200);
    await get(svcOtpHeaders(main)).expect(200);
    // One step of tolerance either way.
    await get(svcOtpHeaders(main, Date.now() - 30_000)).expect(200);
    await get(svcOtpHeaders(main, Date.now() + 30_000)).expect(200);
  });

  it('answers under the spec interface version 1.0 as under v1, in both services, query string kept', async () => {
    const v1 = await get(svcOtpHeaders(main), `${BASE}/01_01/kunden/_search?q=Aktuell&size=1`).expect(200);
    const spec = await get(
      svcDigestHeaders(main),
      '/service/demo/employee/1.0/rest/01_01/kunden/_search?q=Aktuell&size=1',
    ).expect(200);
    // The same hits, their links in the version the caller used.
    const linksIn10 = JSON.stringify(v1.body).replaceAll('/employee/v1/rest/', '/employee/1.0/rest/');
    expect(spec.body).toEqual(JSON.parse(linksIn10));
    expect(linksIn10).toContain('"Uri":"/service/demo/employee/1.0/rest/01_01/kunden/');
    expect(spec.headers['x-svc-total']).toBe(v1.headers['x-svc-total']);
    await get(svcDigestHeaders(main), '/service/demo/broker/1.0/rest/laender').expect(200);
    await get(svcDigestHeaders(main), '/service/demo/broker/1.00/rest/laender').expect(404);
  });

  /** `at` (default now) as `YYYY-MM-DDTHH:mm:ss` on the wall clock of `zone`, without an offset. */
  function wallTime(zone: string, at = new Date()): string {
    return new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' })
      .format(at)
      .replace(' ', 'T');
  }

  /** The digest header group of `timestamp`, with `nonce` (a fresh one unless given). */
  function signedAt(timestamp: string, nonce = randomBytes(20).toString('hex')): Record<string, string> {
    return {
      'X-Svc-Api-Id': main.apiId,
      'X-Svc-Timestamp': timestamp,
      'X-Svc-Nonce': nonce,
      'X-Svc-Digest': svcDigest(nonce, timestamp, main.apiKey),
    };
  }

  it('reads a timestamp without offset in Europe/Berlin, whatever X-Svc-Timezone says; one with its offset as it is', async () => {
    await get(signedAt(wallTime('Europe/Berlin'))).expect(200);
    // Tokyo wall-clock time read as Berlin time is hours off.
    await get(signedAt(wallTime('Asia/Tokyo'))).expect(400);
    const tokyo = await get({ ...signedAt(wallTime('Asia/Tokyo')), 'X-Svc-Timezone': 'Asia/Tokyo' }).expect(
      400,
    );
    expect(tokyo.body.Meldungen[0]).toMatch(
      /without an offset is read in Europe\/Berlin, whatever X-Svc-Timezone/,
    );
    await get({ ...signedAt(`${wallTime('Asia/Tokyo')}+09:00`), 'X-Svc-Timezone': 'Asia/Tokyo' }).expect(200);
    await get(signedAt(`${wallTime('UTC')}Z`)).expect(200);
  });

  it('accepts a signed request at most once: a replay 15 min, 1 h or 14 h later is refused under every zone header', async () => {
    const zones = ['Europe/Berlin', 'Europe/London', 'UTC', 'Asia/Kathmandu', 'Asia/Kolkata', 'Asia/Tokyo'];
    const farZones = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/New_York', 'Australia/Eucla'];
    const replayZones = [undefined, ...zones, ...farZones];
    for (const later of [15 * 60_000, 3_600_000, 14 * 3_600_000]) {
      const sentAt = new Date(Date.now() - later);
      // As its client sent it then: in Berlin time, or on the wall clock of a zone it named.
      for (const sentIn of [undefined, ...zones, ...farZones]) {
        const original = signedAt(wallTime(sentIn ?? 'Europe/Berlin', sentAt));
        for (const replayZone of replayZones) {
          const replay = replayZone ? { ...original, 'X-Svc-Timezone': replayZone } : original;
          const answer = await get(replay);
          expect({ later, sentIn, replayZone, status: answer.status }).toEqual({
            later,
            sentIn,
            replayZone,
            status: 400,
          });
        }
      }
      // The one-time password of that moment, with and without zone headers (another client: wrong OTPs count
      // against their client's budget of 10 an hour).
      const otp = { 'X-Svc-Api-Id': other.apiId, 'X-Svc-Otp': svcOtp(other.apiKey, sentAt.getTime()) };
      for (const replayZone of [undefined, 'Europe/London', 'Pacific/Kiritimati'])
        await get(replayZone ? { ...otp, 'X-Svc-Timezone': replayZone } : otp).expect(400);
    }
  }, 60_000);

  /** Header groups built when the test runs, so their timestamps are as fresh (or stale) as intended. */
  const invalidHeaderGroups: [string, () => Record<string, string>, string][] = [
    ['no headers at all', () => ({}), 'Header X-Svc-Api-Id is missing'],
    ['only the API id', () => ({ 'X-Svc-Api-Id': main.apiId }), 'X-Svc-Otp, are required'],
    [
      'a nonce of 39 characters',
      () => ({ ...svcDigestHeaders(main), 'X-Svc-Nonce': 'a'.repeat(39) }),
      'Header X-Svc-Nonce is not 40 lower-case hexadecimal characters',
    ],
    [
      'an upper-case nonce',
      () => ({ ...svcDigestHeaders(main), 'X-Svc-Nonce': 'A'.repeat(40) }),
      'Header X-Svc-Nonce is not 40 lower-case hexadecimal characters',
    ],
    [
      'a timestamp that is no date',
      () => ({ ...svcDigestHeaders(main), 'X-Svc-Timestamp': 'yesterday' }),
      'Header X-Svc-Timestamp is not a date-time',
    ],
    [
      'a stale timestamp',
      () => svcDigestHeaders(main, new Date(Date.now() - 35_000)),
      'more than 30 seconds away',
    ],
    [
      'a timestamp too far ahead',
      // Well beyond the 30 s: the header has whole seconds (up to 1 s is cut off) and the request takes a while.
      () => svcDigestHeaders(main, new Date(Date.now() + 35_000)),
      'more than 30 seconds away',
    ],
    [
      'a wrong digest',
      () => ({ ...svcDigestHeaders(main), 'X-Svc-Digest': 'f'.repeat(40) }),
      'Header X-Svc-Digest does not match',
    ],
    [
      'a digest made with another key',
      () => ({ ...svcDigestHeaders(other), 'X-Svc-Api-Id': main.apiId }),
      'Header X-Svc-Digest does not match',
    ],
    [
      'a wrong one-time password',
      () => ({ 'X-Svc-Api-Id': main.apiId, 'X-Svc-Otp': '12345678' }),
      'is not valid',
    ],
    [
      'a one-time password of 6 digits',
      () => ({ 'X-Svc-Api-Id': main.apiId, 'X-Svc-Otp': '123456' }),
      'not an 8-digit one-time password',
    ],
    [
      'a one-time password two steps old',
      () => svcOtpHeaders(main, Date.now() - 65_000),
      'Header X-Svc-Otp is not valid',
    ],
    [
      'both forms at once',
      () => ({ ...svcDigestHeaders(main), 'X-Svc-Otp': '12345678' }),
      'Send either X-Svc-Otp or',
    ],
    [
      'an unknown time zone',
      () => ({ ...svcDigestHeaders(main), 'X-Svc-Timezone': 'Mars/Olympus' }),
      'Header X-Svc-Timezone is not an IANA time zone',
    ],
  ];

  it.each(invalidHeaderGroups)(
    'refuses %s with 400 and a message saying which',
    async (_case, headers, message) => {
      const response = await get(headers()).expect(400);
      expect(response.body).toEqual({ Meldungen: [expect.stringContaining(message)] });
    },
  );

  /** A fresh API client of `brokerNumber` (one per broker) and the headers of a wrong OTP of it. */
  async function guessingClient(brokerNumber: string, employee: string) {
    const { rows } = await service.db.query<{ id: string }>(
      'SELECT id::text FROM broker.broker WHERE broker_number = $1',
      [brokerNumber],
    );
    const guessed = await service.addApiClient(rows[0].id, employee);
    const valid = [-30_000, 0, 30_000].map((shift) => svcOtp(guessed.apiKey, Date.now() + shift));
    const wrong = ['00000000', '00000001', '00000002', '00000003'].find((code) => !valid.includes(code))!;
    return { guessed, guess: { 'X-Svc-Api-Id': guessed.apiId, 'X-Svc-Otp': wrong } };
  }

  it('refuses OTP proofs of an API id after 10 wrong ones until the hour ends (429), the digest still accepted', async () => {
    const { guessed, guess } = await guessingClient('V1000', 'otp_guess');
    for (let attempt = 0; attempt < 10; attempt++) await get(guess).expect(400);

    const throttled = await get(guess).expect(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(3_500);
    expect(Number(throttled.headers['retry-after'])).toBeLessThanOrEqual(3_600);
    expect(throttled.body).toEqual({
      Meldungen: [
        `Too many wrong one-time passwords for API id ${guessed.apiId}; send the digest headers or try again later`,
      ],
    });
    await get(svcOtpHeaders(guessed)).expect(429);
    await get(svcDigestHeaders(guessed)).expect(200);
    await get(svcOtpHeaders(main)).expect(200);

    const metrics = await request(service.app.getHttpServer() as App)
      .get('/metrics')
      .expect(200);
    // The ten of this test, and the wrong ones of the other tests of this file.
    const wrong = Number(/auth_refusals_total\{[^}]*reason="wrong"[^}]*\} (\d+)/.exec(metrics.text)?.[1]);
    expect(wrong).toBeGreaterThanOrEqual(10);
    expect(metrics.text).toMatch(/auth_refusals_total\{[^}]*reason="throttled"[^}]*\} 2/);
  });

  it('checks at most 10 wrong OTPs of an API id also when they arrive at once', async () => {
    const { guess } = await guessingClient('V1001', 'otp_burst');
    const answers = await Promise.all(Array.from({ length: 30 }, () => get(guess)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it('refuses a replayed nonce within the timestamp window', async () => {
    const headers = svcDigestHeaders(main);
    await get(headers).expect(200);
    const replay = await get(headers).expect(400);
    expect(replay.body).toEqual({ Meldungen: ['Header X-Svc-Nonce was already used'] });
  });

  it('answers an unknown API id with 404, and an API id of another tenant the same way', async () => {
    const unknown = await get(svcDigestHeaders({ apiId: 'nobody', apiKey: 'x' })).expect(404);
    expect(unknown.body).toEqual({ Meldungen: ['API id nobody does not exist'] });
    await get(svcDigestHeaders(main), '/service/other/employee/v1/rest/anreden').expect(404);
  });

  it('tells whether a client is blocked only to the client itself: a wrong proof stays a 400', async () => {
    await get({ ...svcDigestHeaders(blockedBroker), 'X-Svc-Digest': 'f'.repeat(40) }).expect(400);
    await get({ 'X-Svc-Api-Id': blockedClient.apiId, 'X-Svc-Otp': '12345678' }).expect(400);
  });

  it('answers a blocked broker and a blocked API client with 403', async () => {
    expect((await get(svcDigestHeaders(blockedBroker)).expect(403)).body).toEqual({
      Meldungen: ['Broker V1900 is blocked'],
    });
    expect((await get(svcOtpHeaders(blockedClient)).expect(403)).body).toEqual({
      Meldungen: ['API client blocked-client-api is blocked'],
    });
  });

  it('answers an employee that is not one of the client broker with 404, and a blocked one with 403', async () => {
    const customer = service.customers.v1000Customer;
    await get(svcDigestHeaders(main), `${BASE}/02_01/kunden/${customer}`).expect(404);
    const unknown = await get(svcDigestHeaders(main), `${BASE}/77_77/kunden/${customer}`).expect(404);
    expect(unknown.body).toEqual({ Meldungen: ['Employee 77_77 does not exist'] });
    await get(svcDigestHeaders(main), `${BASE}/01_99/kunden/${customer}`).expect(403);
  });

  it('never echoes the API key', async () => {
    const response = await get({ ...svcDigestHeaders(main), 'X-Svc-Digest': 'f'.repeat(40) });
    expect(JSON.stringify(response.body)).not.toContain(main.apiKey);
  });
});

describe('employee service OpenAPI description', () => {
  let service: EmployeeTestService;
  beforeAll(async () => {
    service = await startEmployeeTestService();
  });
  afterAll(() => service?.close());

  it('is served without authentication and describes every operation with the DTO schemas', async () => {
    const response = await request(service.app.getHttpServer() as App)
      .get(`${BASE}/openapi.json`)
      .expect(200);
    const document = response.body as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    expect(document.openapi).toBe('3.0.3');
    expect((document as { security?: unknown }).security).toEqual([
      { apiId: [], timestamp: [], nonce: [], digest: [] },
      { apiId: [], otp: [] },
    ]);
    expect(Object.keys(document.paths['/{ma}/kunden'] ?? {})).toEqual(['post']);
    expect(
      Object.keys(document.paths['/{ma}/kunden/{customerId}/adressen/{addressId}'] ?? {}).sort(),
    ).toEqual(['delete', 'get', 'put']);
    expect(document.paths['/laender']).toBeDefined();
    const kunde = document.components.schemas.KundeInput;
    expect(document.components.schemas.KundePersonInput?.properties).toHaveProperty('Nachname');
    expect(Object.keys(kunde?.properties ?? {})).toEqual(
      expect.arrayContaining(['Anrede', 'Person', 'Mitteilungen']),
    );
    // Optional, and null keeps the stored type (as absence does).
    expect(document.components.schemas.KundePersonInput?.properties?.Typ).toEqual({
      enum: ['natuerlich', 'juristisch', null],
      type: 'string',
      nullable: true,
      description: 'Required by addKunde; setKunde keeps the stored type when it is null or absent',
    });
  });
});
