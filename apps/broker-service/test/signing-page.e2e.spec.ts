import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import {
  customerPageClients,
  expectPageSecurityHeaders,
  type OpenedForm,
  type PageClient,
} from './customer-page-client.js';
import { FIXTURE_API_CLIENTS, FIXTURE_EMPLOYEES } from './employee-fixture.js';
import { sha256Hex } from '../src/notifications/link-tokens.js';
import { type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import { asBuffer } from './multipart.js';
import {
  expireSignatureLink,
  insertCustomer,
  insertSignatureLink,
  pdfDrawnImages,
  pdfText,
  pngChunk,
  pngDataUrl,
  pngHeader,
  strokePng,
} from './signing-support.js';

const PAGE = '/service/demo/unterschrift';
const RATE_LIMIT = 8;

interface ArchiveEntry {
  Uri: string;
  Id: string;
  Typ: string;
  Dokument: { Dateiname: string; MimeType: string; Groesse: number; Uri?: string } | null;
}

describe('signing page of the broker mandate (HTTP, no browser)', () => {
  let service: EmployeeTestService;
  let db: Client;
  let pageClients: () => PageClient;

  beforeAll(async () => {
    service = await startEmployeeTestService({ SIGNING_RATE_LIMIT: String(RATE_LIMIT) });
    db = service.db;
    pageClients = customerPageClients(service, PAGE);
  });
  afterAll(async () => {
    await service?.close();
  });

  const newClient = () => pageClients();
  const openForm = (client: PageClient, token: string) => client.open(token);
  const submit = (client: PageClient, form: OpenedForm, fields: Record<string, string>) =>
    client.submit(form, { signature: '', typedName: '', ...fields });

  async function writes(customerId: string) {
    const { rows } = await db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM broker.archive_entry WHERE customer_id = $1) AS entries,
              (SELECT count(*)::int FROM broker.document WHERE customer_id = $1) AS documents,
              (SELECT count(*)::int FROM broker.audit_event WHERE customer_id = $1) AS audits,
              (SELECT count(*)::int FROM broker.customer_link_token WHERE customer_id = $1 AND used_at IS NOT NULL)
                AS used`,
      [customerId],
    );
    return rows[0];
  }
  const NOTHING_WRITTEN = { entries: 0, documents: 0, audits: 0, used: 0 };

  it('shows broker, customer and mandate text with security headers, its own assets and a CSRF cookie', async () => {
    const customer = await insertCustomer(db, 'Jürgen', 'Weiß');
    const token = await insertSignatureLink(db, customer);
    const client = newClient();
    const page = await client.get(`${PAGE}?token=${token}`).expect(200);
    expectPageSecurityHeaders(page.headers);
    expect(page.headers['set-cookie']?.[0]).toMatch(
      /^unterschrift_csrf=[\w-]{32}; Path=\/service\/demo\/unterschrift; HttpOnly; SameSite=Lax$/,
    );
    expect(page.text).toContain('<html lang="de">');
    expect(page.text).toContain('Jürgen Weiß');
    expect(page.text).toContain('Muster Makler GmbH');
    expect(page.text).toContain('Die Vollmacht umfasst insbesondere');
    expect(page.text).toMatch(/<label for="typed-name"\s*>/);
    expect(page.text).toMatch(/<label for="consent"\s*>/);
    expect(page.text).not.toMatch(/<script>|style=|https?:\/\//);
    const assets = [...page.text.matchAll(/(?:href|src)="(\/service\/demo\/unterschrift\/assets\/[^"]+)"/g)];
    expect(assets.map((match) => match[1].replace(/\?v=\w+$/, '')).sort()).toEqual([
      `${PAGE}/assets/customer-pages.css`,
      `${PAGE}/assets/signing.js`,
    ]);
    for (const [, asset] of assets) {
      const answer = await client.get(asset.replaceAll('&amp;', '&')).expect(200);
      expect(answer.headers['content-type']).toMatch(/^text\/(css|javascript); charset=utf-8$/);
    }
    await client.get(`${PAGE}/assets/other.js`).expect(404);
  });

  it("fills in the tenant's own mandate template", async () => {
    const customer = await insertCustomer(db, 'Tina', 'Template');
    const token = await insertSignatureLink(db, customer);
    await db.query(
      `INSERT INTO broker.mandate_template (tenant_id, title, body)
       SELECT id, 'Vollmacht der Demo AG', 'Hiermit bevollmächtigt {{kunde}} die Firma {{ makler }}.' || E'\\n\\n' ||
              'Zweiter Absatz <b>ohne</b> Markup.'
         FROM broker.tenant WHERE code = 'demo'`,
    );
    try {
      const page = await newClient().get(`${PAGE}?token=${token}`).expect(200);
      expect(page.text).toContain('<h1>Vollmacht der Demo AG unterschreiben</h1>');
      expect(page.text).toContain('Hiermit bevollmächtigt Tina Template die Firma Muster Makler GmbH.');
      expect(page.text).toContain('Zweiter Absatz &#60;b&#62;ohne&#60;/b&#62; Markup.');
      expect(page.text).not.toContain('Die Vollmacht umfasst');
    } finally {
      await db.query('DELETE FROM broker.mandate_template');
    }
  });

  it('signs with a typed name: PDF document, archive entry, Maklervollmacht, used link and audit, in the API', async () => {
    const client = newClient();
    const customer = await insertCustomer(db, 'Hanna', 'Tippmann');
    const form = await openForm(client, await insertSignatureLink(db, customer));
    const done = await submit(client, form, { typedName: '  Hanna   Tippmann ', consent: 'ja' }).expect(200);
    expect(done.text).toContain('Vielen Dank!');
    const pageHash = /<code>([0-9a-f]{64})<\/code>/.exec(done.text)?.[1];

    const kunde = await service.call('get', service.employeePath(`/kunden/${customer}`)).expect(200);
    const mandateUri = (kunde.body as { Maklervollmacht?: string }).Maklervollmacht;
    expect(mandateUri).toMatch(new RegExp(`/kunden/${customer}/archiveintraege/\\d+$`));
    const entry = (await service.call('get', mandateUri!).expect(200)).body as ArchiveEntry;
    expect(entry).toMatchObject({
      Typ: 'maklervollmacht',
      Dokument: { MimeType: 'application/pdf', Uri: `${mandateUri}/dokument` },
    });
    expect(entry.Dokument?.Dateiname).toMatch(
      new RegExp(`^maklervollmacht-${customer}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`),
    );
    const listed = async (list: string) =>
      (
        (await service.call('get', service.employeePath(`/kunden/${customer}/${list}`)).expect(200))
          .body as ArchiveEntry[]
      ).map((item) => item.Uri);
    expect(await listed('archiveintraege')).toEqual([mandateUri]);
    expect(await listed('dokumente')).toEqual([mandateUri]);

    const download = await asBuffer(service.call('get', entry.Dokument!.Uri!)).expect(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain(`filename="${entry.Dokument!.Dateiname}"`);
    const pdf = download.body as Buffer;
    expect(pdf.length).toBe(entry.Dokument!.Groesse);
    const text = await pdfText(pdf);
    expect(text).toContain('Hanna Tippmann');
    expect(text).toContain('Muster Makler GmbH');
    expect(text).toMatch(
      /Elektronisch unterschrieben \(durch Eingabe des Namens\) am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2} MES?Z/,
    );
    expect(text).toContain(`Prüfsumme des Inhalts (SHA-256): ${pageHash}`);
    expect(await pdfDrawnImages(pdf)).toBe(0);

    expect(await writes(customer)).toEqual({ entries: 1, documents: 1, audits: 1, used: 1 });
    const { rows } = await db.query<{
      sha256: string;
      action: string;
      client_address: string;
      details: object;
    }>(
      `SELECT d.sha256, a.action, a.client_address, a.details FROM broker.document d, broker.audit_event a
        WHERE d.customer_id = $1 AND a.customer_id = $1`,
      [customer],
    );
    expect(rows[0].sha256).toBe(sha256Hex(pdf));
    expect(rows[0]).toMatchObject({
      action: 'maklervollmacht_unterschrieben',
      client_address: client.address,
      details: {
        drawn: false,
        typedName: 'Hanna Tippmann',
        contentSha256: pageHash,
        archiveEntryId: entry.Id,
      },
    });
  });

  it('embeds a drawn signature in the PDF', async () => {
    const client = newClient();
    const customer = await insertCustomer(db, 'Zoë', 'Łukasiewicz');
    const form = await openForm(client, await insertSignatureLink(db, customer));
    await submit(client, form, { signature: pngDataUrl(strokePng()), consent: 'ja' }).expect(200);
    const { rows } = await db.query<{ content: Buffer }>(
      `SELECT dc.content FROM broker.document_content dc JOIN broker.document d ON d.id = dc.document_id
        WHERE d.customer_id = $1`,
      [customer],
    );
    expect(await pdfDrawnImages(rows[0].content)).toBe(1);
    const text = await pdfText(rows[0].content);
    expect(text).toContain('Zoë Lukasiewicz');
    expect(text).toContain('auf dem Bildschirm gezeichnet');
  });

  it.each([
    ['no consent', { typedName: 'Olga Ohne' }, 'Bitte bestätigen Sie mit dem Häkchen'],
    ['neither drawing nor name', { consent: 'ja' }, 'Bitte unterschreiben Sie im Unterschriftenfeld'],
    [
      'a name of one letter',
      { typedName: 'X', consent: 'ja' },
      'Bitte geben Sie Ihren vollständigen Namen ein',
    ],
    [
      'an oversize drawing',
      { signature: pngDataUrl(Buffer.concat([strokePng(), randomBytes(300 * 1024)])), consent: 'ja' },
      'Die gezeichnete Unterschrift ist zu groß',
    ],
    [
      'a drawing larger than the pad allows',
      { signature: pngDataUrl(strokePng(4000, 10)), consent: 'ja' },
      'Die gezeichnete Unterschrift ist zu groß',
    ],
    [
      // Decoders take the last header: a small file could otherwise unpack into gigabytes.
      'a drawing with a second, huge header',
      {
        signature: pngDataUrl(
          Buffer.concat([
            strokePng().subarray(0, 33),
            pngChunk('IHDR', pngHeader(9000, 6000)),
            strokePng().subarray(33),
          ]),
        ),
        consent: 'ja',
      },
      'konnte nicht gelesen werden',
    ],
    [
      'a typed name with a bidirectional override',
      { typedName: 'Eva \u202eMustermann', consent: 'ja' },
      'Bitte geben Sie Ihren vollständigen Namen ein',
    ],
    [
      'a data URL that is no PNG',
      { signature: 'data:image/svg+xml;base64,PHN2Zz4=', consent: 'ja' },
      'konnte nicht gelesen werden',
    ],
    [
      'a PNG with a broken body',
      {
        signature: pngDataUrl(Buffer.concat([strokePng().subarray(0, 40), Buffer.alloc(60, 7)])),
        consent: 'ja',
      },
      'konnte nicht gelesen werden',
    ],
  ])('re-shows the form with 400 and writes nothing for %s', async (_case, fields, message) => {
    const client = newClient();
    const customer = await insertCustomer(db, 'Fritz', 'Fehler');
    const form = await openForm(client, await insertSignatureLink(db, customer));
    const answer = await submit(client, form, fields).expect(400);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.text).toContain('Bitte prüfen Sie Ihre Angaben');
    expect(answer.text).toContain(message);
    expect(answer.text).toContain('<form method="post" action="/service/demo/unterschrift"');
    expect(answer.text).toContain(`name="csrf" value="${form.csrf}"`);
    if ('typedName' in fields) expect(answer.text).toContain(`value="${fields.typedName}"`);
    expect(await writes(customer)).toEqual(NOTHING_WRITTEN);
  });

  it('shows a valid drawing again when the form is refused for another reason, and drops an unreadable one', async () => {
    const client = newClient();
    const customer = await insertCustomer(db, 'Klara', 'Konsens');
    const form = await openForm(client, await insertSignatureLink(db, customer));
    const drawing = pngDataUrl(strokePng());
    const kept = await submit(client, form, { signature: drawing }).expect(400);
    expect(kept.text).toContain(`value="${drawing}"`);
    const dropped = await submit(client, form, { signature: 'data:image/png;base64,AAAA' }).expect(400);
    expect(dropped.text).toMatch(/name="signature"\s+id="signature-data"\s+value=""/);
  });

  it('refuses a form without the CSRF cookie, with another browser’s cookie or for another link (403)', async () => {
    const client = newClient();
    const customer = await insertCustomer(db, 'Carl', 'Cross');
    const form = await openForm(client, await insertSignatureLink(db, customer));
    const otherBrowser = await openForm(newClient(), form.token);
    const otherLink = await openForm(client, await insertSignatureLink(db, customer));
    const fields = { typedName: 'Carl Cross', consent: 'ja' };
    const refusals = [
      await client.post({ ...fields, token: form.token, csrf: form.csrf }),
      await submit(client, { ...form, cookie: otherBrowser.cookie }, fields),
      await submit(client, { ...form, csrf: otherLink.csrf }, fields),
      await submit(client, { ...form, csrf: '' }, fields),
    ];
    for (const answer of refusals) {
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('Das Formular konnte nicht bestätigt werden');
    }
    expect(await writes(customer)).toEqual(NOTHING_WRITTEN);
  });

  it('answers unknown and malformed links with the 404 page, in HTML', async () => {
    const customer = await insertCustomer(db, 'Una', 'Bekannt');
    const passwordToken = await insertSignatureLink(db, customer, { purpose: 'passwort' });
    const signatureToken = await insertSignatureLink(db, customer);
    const client = newClient();
    for (const path of [
      PAGE,
      `${PAGE}?token=`,
      `${PAGE}?token=short`,
      `${PAGE}?token=${'A'.repeat(43)}`,
      `${PAGE}?token=${passwordToken}`,
      `${PAGE}?token=${signatureToken}&token=${signatureToken}`,
      `/service/other/unterschrift?token=${signatureToken}`,
      `/service/Demo!/unterschrift?token=${signatureToken}`,
    ]) {
      const answer = await client.get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.text).toContain('Dieser Link ist ungültig');
    }
    const posted = await newClient()
      .post({ token: 'nope', typedName: 'Una Bekannt', consent: 'ja' })
      .expect(404);
    expect(posted.text).toContain('Dieser Link ist ungültig');
  });

  it('answers used and expired links with 410 pages, for showing and for signing', async () => {
    const client = newClient();
    const customer = await insertCustomer(db, 'Gustav', 'Gone');
    const expired = await openForm(client, await insertSignatureLink(db, customer));
    await expireSignatureLink(db, expired.token);
    const expiredPage = await client.get(`${PAGE}?token=${expired.token}`).expect(410);
    expect(expiredPage.text).toContain('Dieser Link ist abgelaufen');
    const late = await submit(client, expired, { typedName: 'Gustav Gone', consent: 'ja' }).expect(410);
    expect(late.text).toContain('Dieser Link ist abgelaufen');

    const used = await openForm(client, await insertSignatureLink(db, customer));
    await submit(client, used, { typedName: 'Gustav Gone', consent: 'ja' }).expect(200);
    const usedPage = await client.get(`${PAGE}?token=${used.token}`).expect(410);
    expect(usedPage.text).toContain('Diese Vollmacht ist bereits unterschrieben');
    expect(usedPage.headers['set-cookie']).toBeUndefined();
    await submit(client, used, { typedName: 'Gustav Gone', consent: 'ja' }).expect(410);
    expect(await writes(customer)).toMatchObject({ entries: 1, audits: 1 });
  });

  it('lets exactly one of concurrent submits of one link sign', async () => {
    const client = newClient();
    const customer = await insertCustomer(db, 'Rita', 'Rennen');
    const form = await openForm(client, await insertSignatureLink(db, customer));
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => submit(client, form, { typedName: 'Rita Rennen', consent: 'ja' })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410, 410, 410, 410]);
    expect(await writes(customer)).toEqual({ entries: 1, documents: 1, audits: 1, used: 1 });
  });

  it('limits page requests per client address: 429 with Retry-After, other addresses unaffected', async () => {
    const client = newClient();
    const token = await insertSignatureLink(db, await insertCustomer(db, 'Theo', 'Throttle'));
    for (let count = 0; count < RATE_LIMIT; count++) await client.get(`${PAGE}?token=${token}`).expect(200);
    const refused = await client.get(`${PAGE}?token=${token}`).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.text).toContain('Zu viele Anfragen');
    await client.post({ token, typedName: 'Theo Throttle', consent: 'ja' }).expect(429);
    await newClient().get(`${PAGE}?token=${token}`).expect(200);
  });

  it('serves a document only to employees who see its customer', async () => {
    const client = newClient();
    const customer = await insertCustomer(db, 'Dora', 'Download', 'V1003');
    const form = await openForm(client, await insertSignatureLink(db, customer));
    await submit(client, form, { typedName: 'Dora Download', consent: 'ja' }).expect(200);
    const { rows } = await db.query<{ id: string }>(
      'SELECT mandate_archive_entry_id::text AS id FROM broker.customer WHERE id = $1',
      [customer],
    );
    const path = `/kunden/${customer}/archiveintraege/${rows[0].id}/dokument`;
    await service
      .call('get', service.employeePath(path))
      .expect(200)
      .expect('Content-Type', 'application/pdf');
    const foreign = await service
      .call('get', service.employeePath(path, FIXTURE_EMPLOYEES.other), { client: FIXTURE_API_CLIENTS.other })
      .expect(404);
    expect(foreign.body).toEqual({ Meldungen: [`Customer ${customer} does not exist`] });
    await service
      .call('get', service.employeePath(`/kunden/${customer}/archiveintraege/999999/dokument`))
      .expect(404);
    const { rows: bare } = await db.query<{ id: string }>(
      `INSERT INTO broker.archive_entry (tenant_id, customer_id, entry_type, title)
       SELECT tenant_id, id, 'notiz', 'Ohne Dokument' FROM broker.customer WHERE id = $1 RETURNING id::text`,
      [customer],
    );
    await service
      .call('get', service.employeePath(`/kunden/${customer}/archiveintraege/${bare[0].id}/dokument`))
      .expect(404);
  });
});
