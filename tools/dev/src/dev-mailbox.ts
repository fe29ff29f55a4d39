import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { TestMailServer, TestSmsGateway } from '@broker/testing';

/** Where the development mailbox's page listens; `DEV_MAILBOX_PORT`. */
export const DEV_MAILBOX_PORT = Number(process.env.DEV_MAILBOX_PORT || 3007);

/** A mail or SMS the broker service sent in development. */
export interface CaughtMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  /** When it arrived, ISO 8601. */
  at: string;
}

/** Nothing of a message runs on the page: its text is text. */
const PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function page(messages: CaughtMessage[]): string {
  const items = [...messages]
    .reverse()
    .map(
      (message) =>
        `<article><h2>${escapeHtml(message.channel === 'email' ? (message.subject ?? '') : 'SMS')}</h2>` +
        `<p>${message.channel} to ${escapeHtml(message.to)}, ${escapeHtml(message.at)}</p>` +
        `<pre>${escapeHtml(message.text)}</pre></article>`,
    );
  return (
    '<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Development mailbox</title></head>' +
    `<body><main><h1>Development mailbox: ${messages.length} messages, newest first</h1>` +
    `${items.join('') || '<p>No message yet.</p>'}</main></body></html>`
  );
}

/**
 * The development mailbox of `pnpm start`: an SMTP server and an SMS gateway that keep what the broker service
 * sends (the password and signing links), shown newest first on a page at DEV_MAILBOX_PORT (`/messages.json` for
 * scripts) and appended to `logFile` as JSON lines. Nothing leaves the machine.
 */
export class DevMailbox {
  private constructor(
    private readonly mail: TestMailServer,
    private readonly sms: TestSmsGateway,
    readonly pageUrl: string,
  ) {}

  static async start(logFile: string, pagePort = DEV_MAILBOX_PORT): Promise<DevMailbox> {
    const [mail, sms] = await Promise.all([TestMailServer.start(), TestSmsGateway.start()]);
    const messages: CaughtMessage[] = [];
    const hosts = new Set([`127.0.0.1:${pagePort}`, `localhost:${pagePort}`]);
    const server = createServer((request, response) => {
      // The messages hold password and signing links: no other site may read them (DNS rebinding).
      if (!hosts.has(request.headers.host ?? '')) return response.writeHead(421).end();
      const json = request.url === '/messages.json';
      if (!json && request.url !== '/') return response.writeHead(404).end();
      response.writeHead(200, {
        'Content-Type': json ? 'application/json' : 'text/html; charset=utf-8',
        'Content-Security-Policy': PAGE_CSP,
        'Cache-Control': 'no-store',
      });
      response.end(json ? JSON.stringify(messages) : page(messages));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) =>
        reject(
          new Error(
            `The development mailbox cannot listen on ${pagePort} (DEV_MAILBOX_PORT): ${error.message}`,
          ),
        ),
      );
      server.listen(pagePort, '127.0.0.1', resolve);
    });
    const keep = (message: CaughtMessage) => {
      messages.push(message);
      mkdirSync(path.dirname(logFile), { recursive: true });
      appendFileSync(logFile, `${JSON.stringify(message)}\n`);
    };
    const at = () => new Date().toISOString();
    mail.onReceive = ({ to, subject, text }) =>
      keep({ channel: 'email', to: to.join(', '), subject, text: text.trim(), at: at() });
    sms.onReceive = ({ to, text }) => keep({ channel: 'sms', to, subject: null, text, at: at() });
    return new DevMailbox(mail, sms, `http://127.0.0.1:${pagePort}/`);
  }

  /** The broker service's variables that send its messages here. */
  get env(): { SMTP_URL: string; SMS_GATEWAY_URL: string } {
    return { SMTP_URL: this.mail.url, SMS_GATEWAY_URL: this.sms.url };
  }
}
