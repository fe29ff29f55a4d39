import { createServer, type Server } from 'node:http';
import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import type { Page } from 'playwright-core';
import { createEmployeeClient } from '@broker/client';
import { findFreePort } from '@broker/local-services';
import {
  CONSOLE_PEOPLE,
  describeWithChromium,
  tabTo,
  TestMailServer,
  waitFor,
  writeGdvPortfolio,
} from '@broker/testing';
import { ConsoleBrowser, seriousViolations } from './console-browser.js';
import { nginxInstalled } from './gateway-process.js';

const suite = 'operator console in Chromium through the gateway';

/** A GDV file of `contracts` contracts (two per customer) whose policy numbers start with `policyPrefix`. */
async function gdvFile(policyPrefix: string, contracts = 200): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new PassThrough().on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeGdvPortfolio(out, { contracts, policyPrefix });
  out.end();
  return Buffer.concat(chunks);
}

(nginxInstalled(suite) ? describeWithChromium(suite) : describe.skip)(suite, () => {
  let harness: ConsoleBrowser;
  let smtpPort: number;

  beforeAll(async () => {
    smtpPort = await findFreePort();
    harness = await ConsoleBrowser.start('console', {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      IMPORT_WEBHOOK_ALLOW_HTTP: 'true',
      IMPORT_WEBHOOK_DISPATCH_MS: '100',
      IMPORT_WEBHOOK_RETRY_BASE_MS: '20',
      IMPORT_WEBHOOK_RETRY_MAX_MS: '50',
      // Nothing listens there until the test starts its mail server: messages wait in the outbox.
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      NOTIFY_SWEEP_INTERVAL_MS: '300',
    });
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });
  afterEach(() => {
    expect(harness.pageProblems.splice(0)).toEqual([]);
  });

  /** The page passes axe-core without serious or critical violations, and is kept as a screenshot. */
  async function checkPage(page: Page, name: string): Promise<void> {
    expect(await seriousViolations(page)).toEqual([]);
    await harness.screenshot(page, name);
  }

  it("logs a tenant's administrator in; brokers, a sub-broker and an API client made with the keyboard alone", async () => {
    const page = await harness.newPage();
    await harness.logIn(page, CONSOLE_PEOPLE.anna, 'anna-1');
    await page.getByRole('heading', { name: 'Makler des Mandanten demo' }).waitFor();
    const csp = (await page.request.get(`${harness.consoleUrl}/`)).headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    await checkPage(page, 'anna-2-brokers');

    await tabTo(page, '#new-broker-number');
    await page.keyboard.type('K100');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Konsole Hundert GmbH');
    await page.keyboard.press('Enter');
    await page.getByText('Makler K100 angelegt.').waitFor();

    await tabTo(page, 'button:has-text("Untervermittler anlegen unter K100")');
    await page.keyboard.press('Enter');
    expect(
      await page.locator('#new-broker-number').evaluate((input) => input === document.activeElement),
    ).toBe(true);
    await page.keyboard.type('K101');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Konsole Hunderteins');
    await page.keyboard.press('Enter');
    await page.getByText('Makler K101 angelegt unter K100.').waitFor();

    await tabTo(page, 'button[aria-controls="sub-K100"]');
    await page.keyboard.press('Enter');
    await page.locator('#sub-K100').getByRole('link', { name: 'K101' }).waitFor();
    await checkPage(page, 'anna-3-tree');

    await page.getByRole('searchbox').fill('hunderteins');
    const matches = await waitFor(async () => {
      const rows = await page.locator('.tree > li').allInnerTexts();
      return rows.length > 0 && !rows.some((row) => row.startsWith('K100')) ? rows : undefined;
    });
    expect(matches).toEqual([expect.stringMatching(/^K101\s+Konsole Hunderteins\s+unter K100/)]);

    await page.getByRole('searchbox').fill('');
    await page.getByRole('link', { name: 'K100', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Makler K100: Konsole Hundert GmbH' }).waitFor();
    await tabTo(page, 'button:has-text("API-Zugang anlegen")');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Neuer API-Zugang' }).waitFor();
    const apiId = await page.getByTestId('api-id').innerText();
    const apiKey = await page.getByTestId('api-key').innerText();
    expect(await page.getByRole('img', { name: /QR-Code/ }).getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );
    await checkPage(page, 'anna-4-api-client-key');

    // The key works in area C through the gateway, for the new broker.
    const employee = createEmployeeClient({
      baseUrl: `${harness.gateway.url}/service/demo/employee/1.0/rest`,
      apiId,
      apiKey,
      batch: false,
      cache: false,
    });
    const salutations = await employee.api.GET('/anreden');
    expect(salutations.response.status).toBe(200);

    // Shown once: after closing, and on the page again, the key is nowhere.
    await page.getByRole('button', { name: 'Schlüssel gesichert, schließen' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'Makler K100: Konsole Hundert GmbH' }).waitFor();
    expect(await page.content()).not.toContain(apiKey);
    await page.getByRole('cell', { name: apiId, exact: true }).waitFor();
    await page.context().close();
  }, 90_000);

  it('uploads a master-data file after its preview; calculation users, insurers and the audit trail', async () => {
    const page = await harness.newPage();
    await harness.logIn(page, CONSOLE_PEOPLE.anna);
    await page.getByRole('link', { name: 'Stammdaten-Upload' }).click();
    await page.getByRole('heading', { name: 'Stammdaten hochladen (demo)' }).waitFor();
    const upload = (csv: string) =>
      page
        .getByLabel('CSV-Datei')
        .setInputFiles({ name: 'makler.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

    await upload('number,name,parent\nM1,Makler Eins,\nM2,,M1\n');
    await page.getByRole('button', { name: 'Vorschau (Probelauf)' }).click();
    await page.getByRole('cell', { name: '3', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Jetzt importieren' }).isDisabled()).toBe(true);
    // The service's answer to a file with bad lines (nothing written): what the page shows, not a fault of it.
    expect(harness.pageProblems.splice(0)).toEqual([
      expect.stringMatching(/^422 .*\/master-data\/brokers\?dry_run=true$/),
    ]);
    await checkPage(page, 'anna-5-master-data-bad-line');

    await upload('number,name,parent\nM1,Makler Eins,\nM2,Makler Zwei,M1\nV1000,Muster Makler GmbH,\n');
    await page.getByRole('button', { name: 'Vorschau (Probelauf)' }).click();
    const preview = page.getByRole('region', { name: 'Vorschau für makler.csv' });
    await preview.waitFor();
    expect(await preview.locator('table.counts').innerText()).toMatch(
      /Neu\s+2\s+Geändert\s+0\s+Unverändert\s+1\s+Fehlerhafte Zeilen\s+0/,
    );
    await preview.getByRole('row', { name: '2 M1 neu' }).waitFor();
    await preview.getByRole('row', { name: '4 V1000 unverändert' }).waitFor();
    await checkPage(page, 'anna-6-master-data-preview');
    const before = await page.request.get(`${harness.consoleUrl}/api/v1/tenants/demo/brokers/M2`);
    expect(before.status()).toBe(404);
    await page.getByRole('button', { name: 'Jetzt importieren' }).click();
    await page.getByRole('region', { name: 'Importiert' }).waitFor();
    const after = await page.request.get(`${harness.consoleUrl}/api/v1/tenants/demo/brokers/M2`);
    expect(await after.json()).toMatchObject({ number: 'M2', name: 'Makler Zwei', parent: 'M1' });

    await page.getByRole('link', { name: 'Rechner-Zugänge' }).click();
    await page.getByRole('heading', { name: 'Rechner-Zugänge des Mandanten demo' }).waitFor();
    await page.getByRole('form', { name: 'Zugang anlegen' }).getByLabel('Benutzername').fill('vergleich-1');
    await page
      .getByRole('form', { name: 'Zugang anlegen' })
      .getByLabel('Passwort')
      .fill('ein-sehr-langes-passwort-1');
    await page.getByRole('button', { name: 'Zugang anlegen' }).click();
    await page.getByText('Rechner-Zugang vergleich-1 angelegt.').waitFor();
    await checkPage(page, 'anna-7-calc-users');

    await page.getByRole('link', { name: 'Versicherer' }).click();
    await page.getByRole('heading', { name: /^Versicherer und Vereinbarungen/ }).waitFor();
    await checkPage(page, 'anna-8-companies');

    await page.getByRole('link', { name: 'Protokoll' }).click();
    await page.getByLabel('Aktion').fill('importMasterData');
    await page.getByRole('button', { name: 'Filtern' }).click();
    await page.getByRole('cell', { name: 'master-data/brokers' }).first().waitFor();
    const rows = await page.locator('tbody tr').allInnerTexts();
    expect(rows.every((row) => row.includes('importMasterData'))).toBe(true);
    expect(rows[0]).toContain('"created":["M1","M2"]');
    await checkPage(page, 'anna-9-audit');
    await page.context().close();
  }, 90_000);

  it('shows an operator the tenants; logout ends the session at the console and at the provider', async () => {
    const page = await harness.newPage();
    await harness.logIn(page, CONSOLE_PEOPLE.olga);
    await page.getByRole('heading', { name: 'Mandanten', exact: true }).waitFor();
    await page.getByLabel('Kennung').fill('sued');
    await page.getByLabel('Name').fill('Süd Pool');
    await page.getByRole('button', { name: 'Mandant anlegen' }).click();
    await page.getByText('Mandant sued angelegt.').waitFor();
    await page.getByRole('link', { name: 'sued' }).waitFor();
    await checkPage(page, 'olga-1-tenants');

    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.getByRole('heading', { name: 'Abmelden' }).waitFor();
    await harness.screenshot(page, 'olga-2-provider-logout');
    await page.getByRole('button', { name: 'Abmelden' }).click();
    // Back at the console without a session: its login, which the provider asks for again.
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    expect((await page.request.get(`${harness.consoleUrl}/session`)).status()).toBe(401);
    await page.context().close();
  });

  it('refuses a cross-site form posted to the console by another site', async () => {
    const page = await harness.newPage();
    await harness.logIn(page, CONSOLE_PEOPLE.anna);
    const target = `${harness.consoleUrl}/api/v1/tenants/demo/brokers`;
    const evil: Server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end(
        `<!DOCTYPE html><html lang="en"><title>x</title><form method="post" enctype="text/plain" action="${target}">
         <input name='{"number":"EVIL","name":"x","pad":"' value='"}'><button>go</button></form>`,
      );
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      // localhost is another site than 127.0.0.1: the browser treats the form as cross-site.
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.url() === target),
        page.getByRole('button', { name: 'go' }).click(),
      ]);
      expect([401, 403]).toContain(answer.status());
    } finally {
      evil.close();
    }
    const brokers = await page.request.get(`${harness.consoleUrl}/api/v1/tenants/demo/brokers?q=EVIL`);
    expect(((await brokers.json()) as { total: number }).total).toBe(0);
    harness.pageProblems.splice(0);
    await page.context().close();
  });

  it('follows an import live to processed, and retries one that failed to processed', async () => {
    const page = await harness.newPage();
    await harness.logIn(page, CONSOLE_PEOPLE.anna);
    await page.getByRole('link', { name: 'Importe' }).click();
    await page.getByRole('heading', { name: 'Importe des Mandanten demo' }).waitFor();

    await harness.stopWorker();
    try {
      await uploadAndFollow(page);
    } finally {
      await harness.startWorker();
    }
    await page.context().close();
  }, 120_000);

  /** Two uploads while the worker is stopped: one followed live to processed, one failed and retried to processed. */
  async function uploadAndFollow(page: Page): Promise<void> {
    const live = await harness.uploadImport(await gdvFile('LIVE'));
    const failing = await harness.uploadImport(await gdvFile('RETRY'), 'fehler.gdv');
    // The second fails as the pipeline fails a process: its stage's retries spent.
    const db = new Client({ connectionString: String(harness.suite.env.DATABASE_URL) });
    await db.connect();
    try {
      await db.query(
        `UPDATE "import".import_process SET status = 'failed', ended_at = now(),
                failure_reason = 'The import stopped in stage uploaded after repeated technical faults'
          WHERE id = $1`,
        [failing],
      );
      await db.query(`INSERT INTO "import".import_status_change (process_id, status) VALUES ($1, 'failed')`, [
        failing,
      ]);
    } finally {
      await db.end();
    }
    // The list was open before the uploads: they come into it, and move in it, by its event stream alone.
    const liveRow = page.getByRole('row', { name: /bestand\.gdv/ });
    await liveRow.getByText('hochgeladen').waitFor();
    await page
      .getByRole('row', { name: /fehler\.gdv/ })
      .getByText('fehlgeschlagen')
      .waitFor();
    await checkPage(page, 'anna-10-imports');
    await harness.startWorker();
    await liveRow.getByText('verarbeitet').waitFor({ timeout: 60_000 });
    expect(await liveRow.getByRole('progressbar').getAttribute('value')).toBe('100');

    await liveRow.getByRole('link').click();
    await page.getByRole('heading', { name: 'Import bestand.gdv von V1000' }).waitFor();
    await page.getByTestId('import-status').getByText('verarbeitet').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Fortschritt' }).getAttribute('value')).toBe('100');
    await checkPage(page, 'anna-11-import-processed');
    expect(live).toMatch(/^[0-9a-f-]{36}$/);

    await page.goto(`${harness.consoleUrl}/t/demo/imports/${failing}`);
    await page.getByText('The import stopped in stage uploaded after repeated technical faults').waitFor();
    await checkPage(page, 'anna-12-import-failed');
    await tabTo(page, 'button:has-text("Wiederholen")');
    await page.keyboard.press('Enter');
    await page.getByText('Der Import wird wiederholt.').waitFor();
    await page.getByTestId('import-status').getByText('verarbeitet').waitFor({ timeout: 60_000 });
    const audit = await page.request.get(
      `${harness.consoleUrl}/api/v1/tenants/demo/audit-events?action=retryImportProcess`,
    );
    expect(((await audit.json()) as { items: { actor: { subject: string } }[] }).items).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ subject: 'anna' }) }),
    ]);
  }

  it('enables a failing webhook endpoint again and redelivers its abandoned events to the receiver', async () => {
    let answer = 500;
    const received: string[] = [];
    const receiver: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (answer < 300) received.push(body);
        response.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const registered = await fetch(`${harness.gateway.url}/api/v1/webhooks`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${await harness.suite.importToken()}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook?key=empfaenger-geheim`,
          event_types: ['import.processed'],
        }),
      });
      expect(registered.status).toBe(201);
      const process = await harness.uploadImport(await gdvFile('HOOK', 20));

      const page = await harness.newPage();
      await harness.logIn(page, CONSOLE_PEOPLE.anna);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Zeigen').selectOption('failing');
      const row = page.getByRole('row', { name: /\/hook\?…/ });
      await waitFor(async () => {
        await page.reload();
        await page.getByLabel('Zeigen').selectOption('failing');
        const text = await row.innerText().catch(() => '');
        return /0 \/ 1$/.test(text.trim()) || undefined;
      }, 60_000);
      expect(await page.content()).not.toContain('empfaenger-geheim');
      await checkPage(page, 'anna-13-webhooks-failing');

      answer = 204;
      await row.getByRole('link').click();
      await page.getByRole('heading', { name: 'Webhook von V1000' }).waitFor();
      await checkPage(page, 'anna-14-webhook');
      await page.getByRole('button', { name: 'Wieder aktivieren' }).click();
      await page.getByText('Der Endpunkt ist wieder aktiv.').waitFor();
      await page.getByRole('button', { name: /^Alle abgebrochenen erneut zustellen/ }).click();
      await page.getByText('1 Zustellung(en) werden erneut versucht.').waitFor();
      await waitFor(() => received.find((body) => body.includes(process)), 30_000);
      expect(JSON.parse(received[0])).toMatchObject({
        type: 'import.processed',
        data: { process_id: process },
      });
      await page.context().close();
    } finally {
      receiver.close();
    }
  }, 120_000);

  it('shows operators the queue board behind the session, with the console’s job actions only', async () => {
    const anonymous = await harness.newPage();
    const board = `${harness.consoleUrl}/queues/`;
    expect((await anonymous.request.get(`${board}api/queues`)).status()).toBe(401);
    await anonymous.goto(board);
    await anonymous.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await anonymous.context().close();

    const page = await harness.newPage();
    await harness.logIn(page, CONSOLE_PEOPLE.olga);
    await page.getByRole('link', { name: 'Warteschlangen' }).click();
    await page.getByText('import-pipeline').first().waitFor();
    await page.getByText('notifications').first().waitFor();
    const csp = (await page.request.get(board)).headers()['content-security-policy'];
    expect(/script-src ([^;]+)/.exec(csp)?.[1]).toBe("'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    await checkPage(page, 'olga-3-queue-board');

    // A stage job waits while the worker is stopped: the queue's list of waiting jobs and the job's own page.
    await harness.stopWorker();
    try {
      const processId = await harness.uploadImport(await gdvFile('BOARD', 20), 'board.gdv');
      await page.goto(`${board}queue/import-pipeline?status=waiting`);
      await page.getByText(processId).first().waitFor();
      await checkPage(page, 'olga-4-queue-waiting');
      await page.goto(`${board}queue/import-pipeline/${processId}-uploaded`);
      await page.getByText(processId).first().waitFor();
      await checkPage(page, 'olga-5-queue-job');
      // Away from the job before it runs: its page would ask for it again once it is gone.
      await page.goto(board);
    } finally {
      await harness.startWorker();
    }

    // Only the console's job actions, from the console's origin.
    const origin = { Origin: new URL(harness.consoleUrl).origin };
    expect(
      (await page.request.put(`${board}api/queues/import-pipeline/obliterate`, { headers: origin })).status(),
    ).toBe(403);
    expect(
      (
        await page.request.post(`${board}api/queues/notifications/add`, { headers: origin, data: {} })
      ).status(),
    ).toBe(403);
    expect((await page.request.put(`${board}api/queues/import-pipeline/retry/failed`)).status()).toBe(403);
    expect(
      (
        await page.request.put(`${board}api/queues/import-pipeline/retry/failed`, { headers: origin })
      ).status(),
    ).toBe(200);
    await page.context().close();

    // The queues hold every tenant's work: a tenant's administrator sees none of it.
    const tenantAdmin = await harness.newPage();
    await harness.logIn(tenantAdmin, CONSOLE_PEOPLE.anna);
    expect(await tenantAdmin.getByRole('link', { name: 'Warteschlangen' }).count()).toBe(0);
    expect((await tenantAdmin.request.get(`${board}api/queues`)).status()).toBe(403);
    const refused = await tenantAdmin.goto(board);
    expect(refused?.status()).toBe(403);
    await tenantAdmin.getByRole('heading', { name: 'Kein Zugriff' }).waitFor();
    await checkPage(tenantAdmin, 'anna-15-queue-board-refused');
    await tenantAdmin.context().close();
  }, 90_000);

  it('resends a customer message that waited in the outbox while the mail server was away', async () => {
    const page = await harness.newPage();
    await harness.logIn(page, CONSOLE_PEOPLE.anna);
    const session = (await (await page.request.get(`${harness.consoleUrl}/session`)).json()) as {
      csrf_token: string;
    };
    const write = (path: string, data: object) =>
      page.request.post(`${harness.consoleUrl}/api/v1/tenants/demo${path}`, {
        data,
        headers: { 'X-CSRF-Token': session.csrf_token },
      });
    expect(
      (await write('/brokers/V1000/employees', { number: 'M1_01', name: 'Mia Mitarbeiterin' })).status(),
    ).toBe(201);
    const client = (await (await write('/brokers/V1000/api-clients', {})).json()) as {
      api_id: string;
      api_key: string;
    };
    const employee = createEmployeeClient({
      baseUrl: `${harness.gateway.url}/service/demo/employee/1.0/rest`,
      apiId: client.api_id,
      apiKey: client.api_key,
      batch: false,
      cache: false,
    });
    const created = await employee.api.POST('/{ma}/kunden', {
      params: { path: { ma: 'M1_01' } },
      body: {
        Person: { Typ: 'natuerlich', Vorname: 'Olaf', Nachname: 'Outbox' },
        Kontaktdaten: [{ Kontext: 'privat', Typ: 'email', Value: 'olaf@example.com' }],
      },
    } as never);
    expect(created.response.status).toBe(200);

    await page.getByRole('link', { name: 'Nachrichten' }).click();
    const row = page.getByRole('row', { name: /olaf@example\.com/ }).first();
    await waitFor(async () => {
      await page.reload();
      return /ECONNREFUSED|connect/i.test(await row.innerText().catch(() => '')) || undefined;
    }, 30_000);
    await checkPage(page, 'anna-15-messages-waiting');

    const mail = await TestMailServer.start(smtpPort);
    try {
      await row.getByRole('button', { name: /^Erneut senden/ }).click();
      await page.getByText('Nachricht an olaf@example.com wird erneut gesendet.').waitFor();
      await waitFor(() => mail.mails.find((received) => received.to.includes('olaf@example.com')), 30_000);
      await waitFor(async () => {
        await page.reload();
        return (await row.innerText()).includes('gesendet') || undefined;
      }, 30_000);
    } finally {
      await mail.close();
    }
    await page.context().close();
  }, 120_000);
});
