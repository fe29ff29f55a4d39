import { Html, html } from './html.js';

/** Where a page finds its form's target and its own stylesheet and script. */
export interface PageContext {
  base: string;
  stylesheet: string;
  script: string | null;
}

export interface Page {
  status: number;
  title: string;
  content: Html;
}

/** The whole document: German, scaled for phones, only the service's own stylesheet and script. */
export function renderPage(context: PageContext, page: Page): string {
  return html`<!DOCTYPE html>
    <html lang="de">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${page.title}</title>
        <link rel="stylesheet" href="${context.stylesheet}" />
        ${context.script ? html`<script src="${context.script}" defer></script>` : null}
      </head>
      <body>
        <main>${page.content}</main>
      </body>
    </html> `.markup;
}

/** A field of a form and the customer's message about it. */
export interface FormProblem<Field extends string> {
  field: Field;
  message: string;
}

/** The summary above a refused form: takes the focus and links to each field (by its element id). */
export function errorSummary<Field extends string>(
  problems: FormProblem<Field>[],
  fieldIds: Record<Field, string>,
): Html {
  return html`<div class="error-summary" id="fehler" role="alert" tabindex="-1" autofocus>
    <h2>Bitte prüfen Sie Ihre Angaben</h2>
    <ul>
      ${problems.map((problem) => html`<li><a href="#${fieldIds[problem.field]}">${problem.message}</a></li>`)}
    </ul>
  </div>`;
}

/** How to reach the broker, for pages that send the customer back to them. */
export interface BrokerContact {
  name: string;
  email: string | null;
  phone: string | null;
}

export function brokerContact(broker: BrokerContact, request: string): Html {
  const { name, email, phone } = broker;
  return html`<p>${request}</p>
    <address>
      ${name}${phone ? html`<br />Telefon: <a href="tel:${phone.replace(/[^+\d]/g, '')}">${phone}</a>` : null}${email ? html`<br />E-Mail: <a href="mailto:${email}">${email}</a>` : null}
    </address>`;
}

export function unknownLinkPage(): Page {
  return {
    status: 404,
    title: 'Link ungültig',
    content: html`<h1>Dieser Link ist ungültig</h1>
      <p class="lead">
        Bitte prüfen Sie, ob Sie den Link vollständig aus Ihrer E-Mail oder SMS geöffnet haben. Wenn das nicht
        hilft, bitten Sie Ihren Makler um einen neuen Link.
      </p>`,
  };
}

const ERROR_TEXTS: Record<number, [string, string]> = {
  403: [
    'Formular nicht bestätigt',
    'Das Formular konnte nicht bestätigt werden. Bitte öffnen Sie den Link aus Ihrer Nachricht erneut und senden Sie das Formular auf der Seite, die sich dann öffnet.',
  ],
  413: [
    'Zu viele Daten',
    'Die gesendeten Daten sind zu groß. Bitte öffnen Sie den Link erneut und versuchen Sie es noch einmal.',
  ],
  429: ['Zu viele Anfragen', 'Von Ihrem Anschluss kamen in kurzer Zeit zu viele Anfragen.'],
  503: ['Gerade ausgelastet', 'Der Dienst ist im Moment ausgelastet.'],
};

/** A client fault of the page itself (not of the link): what happened and what to do. */
export function clientErrorPage(status: number, retryAfterSeconds?: string): Page {
  if (status === 404) return unknownLinkPage();
  const [title, text] = ERROR_TEXTS[status] ?? [
    'Anfrage nicht möglich',
    'Die Anfrage konnte nicht verarbeitet werden. Bitte öffnen Sie den Link aus Ihrer Nachricht erneut.',
  ];
  const wait = retryAfterSeconds
    ? html` Bitte warten Sie ${retryAfterSeconds} ${retryAfterSeconds === '1' ? 'Sekunde' : 'Sekunden'} und
      versuchen Sie es dann erneut.`
    : null;
  return {
    status,
    title,
    content: html`<h1>${title}</h1>
      <p class="lead">${text}${wait}</p>`,
  };
}

/** A server fault: no details, only the request id to quote. */
export function serverErrorPage(requestId: string): Page {
  return {
    status: 500,
    title: 'Technischer Fehler',
    content: html`<h1>Ein technischer Fehler ist aufgetreten</h1>
      <p class="lead">
        Ihre Eingabe konnte gerade nicht verarbeitet werden. Bitte versuchen Sie es später erneut.
      </p>
      <p>
        Wenn Sie Ihren Makler deswegen kontaktieren, nennen Sie bitte diese Kennung: <code>${requestId}</code>
      </p>`,
  };
}
