import type { Client } from 'pg';
import type { Page } from 'playwright-core';
import { describeWithChromium, tabTo } from '@broker/testing';
import { CustomerPageBrowser } from './customer-page-browser.js';
import type { EmployeeTestService } from './employee-support.js';
import { asBuffer } from './multipart.js';
import { expireSignatureLink, pdfDrawnImages, pdfText } from './signing-support.js';

describeWithChromium('signing page browser e2e')(
  'signing page in Chromium: link by e-mail, drawn and keyboard-only signatures',
  () => {
    let harness: CustomerPageBrowser;
    let service: EmployeeTestService;
    let db: Client;
    let baseUrl: string;

    beforeAll(async () => {
      harness = await CustomerPageBrowser.start('signing-page');
      ({ service, baseUrl } = harness);
      db = service.db;
    }, 60_000);
    afterAll(async () => {
      await harness?.close();
    });
    afterEach(() => {
      expect(harness.pageProblems.splice(0)).toEqual([]);
    });

    const newPage = (): Promise<Page> => harness.newPage();
    const screenshot = (page: Page, name: string) => harness.screenshot(page, name);

    async function addCustomer(firstName: string, lastName: string, email: string): Promise<string> {
      const response = await service
        .call('post', service.employeePath('/kunden'), {
          body: {
            Person: { Typ: 'natuerlich', Vorname: firstName, Nachname: lastName },
            Kontaktdaten: [{ Kontext: 'privat', Typ: 'email', Value: email }],
            Mitteilungen: { ErstinfoUnterbinden: true },
          },
        })
        .expect(200);
      return (response.body as { Id: string }).Id;
    }

    /** sendUnterschrifftenlink by e-mail through the API; the link from the mail the SMTP server received. */
    async function requestLink(customerId: string, email: string): Promise<string> {
      const before = harness.mailsTo(email);
      await service
        .call('post', service.employeePath('/kunden/unterschriftenlinks/_senden'), {
          body: { Art: 'maklervollmacht', Kommunikationsweg: 'email', KundeId: customerId },
        })
        .expect(200);
      return harness.linkInMail(email, before, 'unterschrift');
    }

    /** The customer's Maklervollmacht through the API, and the PDF it links to. */
    async function storedMandate(customerId: string): Promise<{ text: string; images: number }> {
      const customer = await service.call('get', service.employeePath(`/kunden/${customerId}`)).expect(200);
      const mandate = (customer.body as { Maklervollmacht?: string }).Maklervollmacht;
      expect(mandate).toBeDefined();
      const entry = await service.call('get', mandate!).expect(200);
      const document = (entry.body as { Typ: string; Dokument: { Uri: string } }).Dokument;
      expect((entry.body as { Typ: string }).Typ).toBe('maklervollmacht');
      const download = await asBuffer(service.call('get', document.Uri))
        .expect(200)
        .expect('Content-Type', 'application/pdf');
      const pdf = download.body as Buffer;
      return { text: await pdfText(pdf), images: await pdfDrawnImages(pdf) };
    }

    it('signs with a drawn signature; the used and an expired link then show their pages', async () => {
      const email = 'juergen@example.com';
      const customerId = await addCustomer('Jürgen', 'Weißmüller', email);
      const link = await requestLink(customerId, email);
      expect(link.startsWith(`${baseUrl}/service/demo/unterschrift?token=`)).toBe(true);

      const page = await newPage();
      const opened = await page.goto(link);
      expect(opened?.status()).toBe(200);
      await page.getByRole('heading', { name: 'Maklervollmacht unterschreiben' }).waitFor();
      expect(await page.locator('.parties').innerText()).toContain('Jürgen Weißmüller');
      await screenshot(page, 'drawn-1-opened');

      const pad = page.locator('#signature-pad');
      await pad.scrollIntoViewIfNeeded();
      const box = (await pad.boundingBox())!;
      await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
      await page.mouse.down();
      for (const [x, y] of [
        [0.2, 0.3],
        [0.35, 0.75],
        [0.5, 0.25],
        [0.65, 0.7],
        [0.85, 0.4],
      ])
        await page.mouse.move(box.x + box.width * x, box.y + box.height * y, { steps: 6 });
      await page.mouse.up();
      expect(await page.locator('#signature-status').innerText()).toBe('Unterschrift erfasst.');
      // Without consent the form comes back (400) with the drawing kept.
      await page.getByRole('button', { name: 'Verbindlich unterschreiben' }).click();
      await page.getByRole('heading', { name: 'Bitte prüfen Sie Ihre Angaben' }).waitFor();
      await page.locator('#signature-status').getByText('Unterschrift erfasst.').waitFor();
      await page
        .getByLabel('Ich habe den Text gelesen und erteile Muster Makler GmbH diese Maklervollmacht.')
        .check();
      await screenshot(page, 'drawn-2-filled');
      await page.getByRole('button', { name: 'Verbindlich unterschreiben' }).click();
      await page.getByRole('heading', { name: 'Vielen Dank!' }).waitFor();
      await screenshot(page, 'drawn-3-signed');

      const stored = await storedMandate(customerId);
      expect(stored.text).toContain('Jürgen Weißmüller');
      expect(stored.text).toContain('auf dem Bildschirm gezeichnet');
      expect(stored.images).toBe(1);

      const reopened = await page.goto(link);
      expect(reopened?.status()).toBe(410);
      await page.getByRole('heading', { name: 'Diese Vollmacht ist bereits unterschrieben' }).waitFor();

      const expiring = await requestLink(customerId, email);
      const token = new URL(expiring).searchParams.get('token')!;
      await expireSignatureLink(db, token);
      const expired = await page.goto(expiring);
      expect(expired?.status()).toBe(410);
      await page.getByRole('heading', { name: 'Dieser Link ist abgelaufen' }).waitFor();
      expect(await page.locator('main').innerText()).toContain('Muster Makler GmbH');
      await page.context().close();
    });

    it('signs with the keyboard alone, by typing the name', async () => {
      const email = 'kai@example.com';
      const customerId = await addCustomer('Kai', 'Tastatur', email);
      const link = await requestLink(customerId, email);
      const page = await newPage();
      await page.goto(link);

      await tabTo(page, '#typed-name');
      await page.keyboard.type('Kai Tastatur');
      await tabTo(page, '#consent');
      await page.keyboard.press('Space');
      expect(await page.locator('#consent').isChecked()).toBe(true);
      await screenshot(page, 'typed-1-filled');
      await tabTo(page, 'button[type=submit]');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Vielen Dank!' }).waitFor();
      await screenshot(page, 'typed-2-signed');

      const stored = await storedMandate(customerId);
      expect(stored.text).toContain('Kai Tastatur');
      expect(stored.text).toContain('durch Eingabe des Namens');
      expect(stored.images).toBe(0);
      await page.context().close();
    });

    it('shows the 404 page for a link that does not exist', async () => {
      const page = await newPage();
      const answer = await page.goto(`${baseUrl}/service/demo/unterschrift?token=${'x'.repeat(43)}`);
      expect(answer?.status()).toBe(404);
      await page.getByRole('heading', { name: 'Dieser Link ist ungültig' }).waitFor();
      await page.context().close();
    });
  },
);
