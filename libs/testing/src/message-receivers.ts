import { createServer, type Server } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { findFreePort } from '@broker/local-services';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The text, quoted-printable soft line breaks and escapes undone. */
  text: string;
}

/** Undoes quoted-printable (soft line breaks, =XX escapes) in UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parseMail(raw: string, to: string[]): ReceivedMail {
  const [folded = '', ...body] = raw.split(/\r?\n\r?\n/);
  const head = folded.replace(/\r?\n[ \t]+/g, ' '); // a long header goes on in lines that begin with a blank
  const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
  // Blanks between two encoded words are not part of the text (RFC 2047).
  const decodedSubject = subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_m, encoded: string) =>
      decodeQuotedPrintable(encoded.replace(/_/g, ' ')),
    );
  return { to, subject: decodedSubject.replace(/\s+/g, ' '), text: decodeQuotedPrintable(body.join('\n\n')) };
}

/** A real SMTP server (npm smtp-server) on a local port, keeping every mail it accepts. */
export class TestMailServer {
  readonly mails: ReceivedMail[] = [];
  /** Told of every mail as it is kept. */
  onReceive: ((mail: ReceivedMail) => void) | undefined;
  private server: SMTPServer | undefined;

  constructor(readonly port: number) {}

  static async start(port?: number): Promise<TestMailServer> {
    const mailServer = new TestMailServer(port ?? (await findFreePort()));
    await mailServer.listen();
    return mailServer;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((recipient) => recipient.address);
          const mail = parseMail(Buffer.concat(chunks).toString('latin1'), to);
          this.mails.push(mail);
          this.onReceive?.(mail);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

export interface ReceivedSms {
  to: string;
  text: string;
}

/** A local HTTP SMS gateway: keeps what it is sent; can be told to fail the next requests. */
export class TestSmsGateway {
  readonly messages: ReceivedSms[] = [];
  /** Told of every message as it is kept. */
  onReceive: ((message: ReceivedSms) => void) | undefined;
  failNext = 0;
  /** The status the next `failNext` requests are answered with. */
  failStatus = 503;
  private readonly server: Server;

  private constructor(readonly port: number) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (this.failNext > 0) {
          this.failNext--;
          response.writeHead(this.failStatus).end();
          return;
        }
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedSms;
        this.messages.push(message);
        this.onReceive?.(message);
        response.writeHead(202, { 'Content-Type': 'application/json' }).end('{"accepted":true}');
      });
    });
  }

  static async start(): Promise<TestSmsGateway> {
    const gateway = new TestSmsGateway(await findFreePort());
    await new Promise<void>((resolve) => gateway.server.listen(gateway.port, '127.0.0.1', resolve));
    return gateway;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/sms`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
