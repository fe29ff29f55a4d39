import { verify } from '@node-rs/argon2';
import type { Page } from 'playwright-core';
import { describeWithChromium, tabTo } from '@broker/testing';
import { CustomerPageBrowser } from './customer-page-browser.js';
import { expireSignatureLink } from './signing-support.js';

const NEW_PASSWORD = 'Leuchtturm Apfel Gitarre Moos';

describeWithChromium('password page browser e2e')(
  'password page in Chromium: link by e-mail, set by keyboard',
  () => {
    let harness: CustomerPageBrowser;

    beforeAll(async () => {
      harness = await CustomerPageBrowser.start('password-page');
    }, 60_000);
    afterAll(async () => {
      await harness?.close();
    });
    afterEach(() => {
      expect(harness.pageProblems.splice(0)).toEqual([]);
    });

    /** addKunde with PasswortLink through the API; the user name it answers and the link from the mail. */
    async function addCustomerWithPasswordLink(
      email: string,
    ): Promise<{ id: string; userName: string; link: string }> {
      const before = harness.mailsTo(email);
      const response = await harness.service
        .call('post', harness.service.employeePath('/kunden'), {
          body: {
            Anrede: 'frau',
            Person: { Typ: 'natuerlich', Vorname: 'Petra', Nachname: 'Portal' },
            Kontaktdaten: [{ Kontext: 'privat', Typ: 'email', Value: email }],
            Mitteilungen: { PasswortLink: true, ErstinfoUnterbinden: true },
          },
        })
        .expect(200);
      const customer = response.body as { Id: string; Benutzername: string };
      const link = await harness.linkInMail(email, before, 'passwort-setzen');
      return { id: customer.Id, userName: customer.Benutzername, link };
    }

    async function storedHash(customerId: string): Promise<string | undefined> {
      const { rows } = await harness.service.db.query<{ password_hash: string }>(
        'SELECT password_hash FROM broker.customer_password WHERE customer_id = $1',
        [customerId],
      );
      return rows[0]?.password_hash;
    }

    async function typeInto(page: Page, selector: string, text: string): Promise<void> {
      await tabTo(page, selector);
      await page.keyboard.type(text);
    }

    it('sets the password from the mailed link with the keyboard, after one refusal; the link is then spent', async () => {
      const email = 'petra@example.com';
      const customer = await addCustomerWithPasswordLink(email);
      expect(customer.link.startsWith(`${harness.baseUrl}/service/demo/passwort-setzen?token=`)).toBe(true);

      const page = await harness.newPage();
      expect((await page.goto(customer.link))?.status()).toBe(200);
      await page.getByRole('heading', { name: 'Passwort festlegen' }).waitFor();
      expect(await page.getByLabel('Ihr Benutzername').inputValue()).toBe(customer.userName);
      await harness.screenshot(page, 'keyboard-1-opened');

      // A weak password: the form comes back (400) with the summary focused, the fields empty.
      await typeInto(page, '#passwort', 'passwort123');
      await typeInto(page, '#passwort-wiederholung', 'passwort123');
      await tabTo(page, 'button[type=submit]');
      const [refused] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(refused?.status()).toBe(400);
      await page.getByRole('heading', { name: 'Bitte prüfen Sie Ihre Angaben' }).waitFor();
      expect(
        await page.locator('#fehler').evaluate((element) => element === element.ownerDocument.activeElement),
      ).toBe(true);
      expect(await page.locator('#passwort').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#passwort').inputValue()).toBe('');
      await harness.screenshot(page, 'keyboard-2-refused');

      await typeInto(page, '#passwort', NEW_PASSWORD);
      await typeInto(page, '#passwort-wiederholung', NEW_PASSWORD);
      await tabTo(page, 'button[type=submit]');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Ihr Passwort ist gespeichert' }).waitFor();
      expect(await page.locator('main').innerText()).toContain(customer.userName);
      await harness.screenshot(page, 'keyboard-3-set');

      const hash = await storedHash(customer.id);
      expect(hash).toMatch(/^\$argon2id\$/);
      expect(await verify(hash!, NEW_PASSWORD)).toBe(true);

      expect((await page.goto(customer.link))?.status()).toBe(410);
      await page.getByRole('heading', { name: 'Dieser Link wurde bereits verwendet' }).waitFor();
      expect(await page.locator('main').innerText()).toContain('Muster Makler GmbH');
      await page.context().close();
    });

    it('shows the expired page for a link past its time, and sets nothing', async () => {
      const customer = await addCustomerWithPasswordLink('erika@example.com');
      await expireSignatureLink(harness.service.db, new URL(customer.link).searchParams.get('token')!);
      const page = await harness.newPage();
      expect((await page.goto(customer.link))?.status()).toBe(410);
      await page.getByRole('heading', { name: 'Dieser Link ist abgelaufen' }).waitFor();
      await harness.screenshot(page, 'expired');
      expect(await storedHash(customer.id)).toBeUndefined();
      await page.context().close();
    });
  },
);
