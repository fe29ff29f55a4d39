import { Html, html } from './html.js';
import {
  type FormProblem,
  type SignatureField,
  type SigningForm,
  SIGNATURE_PAD,
  TYPED_NAME_MAX_LENGTH,
} from './signature-form.js';
import { berlinDateTime, type SignedMandate } from './signed-mandate.js';
import type { LinkOutcome, SignOutcome, SigningView } from './signing.service.js';

/** Where a page finds the form's target and its own stylesheet and script. */
export interface PageContext {
  base: string;
  stylesheet: string;
  script: string;
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
        <script src="${context.script}" defer></script>
      </head>
      <body>
        <main>${page.content}</main>
      </body>
    </html> `.markup;
}

/** The page of an outcome; a refused form shows again what was entered (the drawing too, when it was valid). */
export function outcomePage(
  context: PageContext,
  outcome: LinkOutcome | SignOutcome,
  form: SigningForm,
): Page {
  switch (outcome.state) {
    case 'unknown':
      return unknownLinkPage();
    case 'used':
      return usedLinkPage(outcome.view);
    case 'expired':
      return expiredLinkPage(outcome.view);
    case 'open':
      return formPage(context, outcome.view, form, []);
    case 'invalid':
      return formPage(context, outcome.view, form, outcome.problems);
    case 'signed':
      return signedPage(outcome.view, outcome.mandate);
  }
}

const FIELD_IDS: Record<SignatureField, string> = {
  signature: 'unterschrift',
  typedName: 'typed-name',
  consent: 'consent',
};

function formPage(context: PageContext, view: SigningView, form: SigningForm, problems: FormProblem[]): Page {
  const refused = (field: SignatureField) => problems.some((problem) => problem.field === field);
  const invalid = (field: SignatureField) => (refused(field) ? html` aria-invalid="true"` : null);
  return {
    status: problems.length > 0 ? 400 : 200,
    title: `${view.text.title} unterschreiben – ${view.broker.name}`,
    content: html`<p class="broker">${view.broker.name}</p>
      <h1>${view.text.title} unterschreiben</h1>
      <p class="lead">
        Bitte lesen Sie die Vollmacht und unterschreiben Sie sie unten. Der Link ist gültig bis
        ${berlinDateTime(view.link.expiresAt)} und kann einmal verwendet werden.
      </p>
      ${parties(view)}
      <section class="mandate" aria-labelledby="text-titel">
        <h2 id="text-titel">Text der Vollmacht</h2>
        ${view.text.paragraphs.map((lines) => html`<p>${lines.map((line, index) => html`${index > 0 ? html`<br />` : null}${line}`)}</p>`)}
      </section>
      <form method="post" action="${context.base}" class="signing" novalidate>
        ${problems.length > 0 ? errorSummary(problems) : null}
        <input type="hidden" name="token" value="${form.token}" />
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <input
          type="hidden"
          name="signature"
          id="signature-data"
          value="${refused('signature') ? '' : form.signature}"
        />
        <fieldset id="unterschrift" ${invalid('signature')}>
          <legend>Ihre Unterschrift</legend>
          <div id="signature-area" class="pad" hidden>
            <p id="pad-hint" class="hint">Unterschreiben Sie mit Finger, Stift oder Maus im Feld.</p>
            <canvas
              id="signature-pad"
              width="${SIGNATURE_PAD.width}"
              height="${SIGNATURE_PAD.height}"
              role="img"
              aria-label="Unterschriftenfeld"
              aria-describedby="pad-hint"
            ></canvas>
            <div class="pad-actions">
              <button type="button" id="signature-clear" class="secondary">Unterschrift löschen</button>
              <span id="signature-status" role="status"></span>
            </div>
            <p class="or">oder</p>
          </div>
          <label for="typed-name">Ihr vollständiger Name</label>
          <p id="typed-name-hint" class="hint">
            Statt zu zeichnen, können Sie Ihren Vor- und Nachnamen eingeben; er gilt dann als Ihre
            Unterschrift.
          </p>
          <input
            type="text"
            id="typed-name"
            name="typedName"
            value="${form.typedName}"
            autocomplete="name"
            maxlength="${TYPED_NAME_MAX_LENGTH}"
            aria-describedby="typed-name-hint"
            ${invalid('typedName')}
          />
        </fieldset>
        <div class="consent">
          <input
            type="checkbox"
            id="consent"
            name="consent"
            value="ja"
            aria-required="true"
            ${form.consent ? html` checked` : null}${invalid('consent')}
          />
          <label for="consent"
            >Ich habe den Text gelesen und erteile ${view.broker.name} diese ${view.text.title}.</label
          >
        </div>
        <button type="submit" class="primary">Verbindlich unterschreiben</button>
      </form>`,
  };
}

function errorSummary(problems: FormProblem[]): Html {
  return html`<div class="error-summary" id="fehler" role="alert" tabindex="-1" autofocus>
    <h2>Bitte prüfen Sie Ihre Angaben</h2>
    <ul>
      ${problems.map((problem) => html`<li><a href="#${FIELD_IDS[problem.field]}">${problem.message}</a></li>`)}
    </ul>
  </div>`;
}

function parties(view: SigningView): Html {
  const party = (role: string, name: string, address: string) =>
    html`<div>
      <dt>${role}</dt>
      <dd>${name}${address ? html`<br />${address}` : null}</dd>
    </div>`;
  return html`<dl class="parties">
    ${party('Vollmachtgeber/in', view.customer.name, view.customer.address)}
    ${party('Versicherungsmakler', view.broker.name, view.broker.address)}
  </dl>`;
}

function signedPage(view: SigningView, mandate: SignedMandate): Page {
  return {
    status: 200,
    title: `${view.text.title} unterschrieben – ${view.broker.name}`,
    content: html`<p class="broker">${view.broker.name}</p>
      <h1>Vielen Dank!</h1>
      <p class="lead success" role="status">
        Ihre ${view.text.title} für ${view.broker.name} ist unterschrieben und gespeichert.
      </p>
      <dl class="parties">
        <div>
          <dt>Vollmachtgeber/in</dt>
          <dd>${view.customer.name}</dd>
        </div>
        <div>
          <dt>Unterschrieben am</dt>
          <dd>${berlinDateTime(mandate.signedAt)}</dd>
        </div>
        <div>
          <dt>Prüfsumme (SHA-256)</dt>
          <dd><code>${mandate.contentSha256}</code></dd>
        </div>
      </dl>
      <p>
        Eine Kopie der unterschriebenen Vollmacht erhalten Sie von Ihrem Makler. Sie können dieses Fenster
        jetzt schließen.
      </p>`,
  };
}

function usedLinkPage(view: SigningView): Page {
  const usedAt = view.link.usedAt ? ` am ${berlinDateTime(view.link.usedAt)}` : '';
  return {
    status: 410,
    title: 'Vollmacht bereits unterschrieben',
    content: html`<h1>Diese Vollmacht ist bereits unterschrieben</h1>
      <p class="lead">
        Der Link wurde${usedAt} verwendet; jeder Link gilt nur einmal. Sie müssen nichts weiter tun.
      </p>
      ${brokerContact(view, 'Bei Fragen wenden Sie sich bitte an Ihren Makler:')}`,
  };
}

function expiredLinkPage(view: SigningView): Page {
  return {
    status: 410,
    title: 'Link abgelaufen',
    content: html`<h1>Dieser Link ist abgelaufen</h1>
      <p class="lead">Der Link war bis ${berlinDateTime(view.link.expiresAt)} gültig.</p>
      ${brokerContact(view, 'Bitte fordern Sie bei Ihrem Makler einen neuen Link an:')}`,
  };
}

function brokerContact(view: SigningView, request: string): Html {
  const { name, email, phone } = view.link.broker;
  return html`<p>${request}</p>
    <address>
      ${name}${phone ? html`<br />Telefon: <a href="tel:${phone.replace(/[^+\d]/g, '')}">${phone}</a>` : null}${email ? html`<br />E-Mail: <a href="mailto:${email}">${email}</a>` : null}
    </address>`;
}

function unknownLinkPage(): Page {
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
    'Das Formular konnte nicht bestätigt werden. Bitte öffnen Sie den Link aus Ihrer Nachricht erneut und unterschreiben Sie auf der Seite, die sich dann öffnet.',
  ],
  413: [
    'Zu viele Daten',
    'Die gesendeten Daten sind zu groß. Bitte öffnen Sie den Link erneut und unterschreiben Sie noch einmal.',
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
        Ihre Unterschrift konnte gerade nicht verarbeitet werden. Bitte versuchen Sie es später erneut.
      </p>
      <p>
        Wenn Sie Ihren Makler deswegen kontaktieren, nennen Sie bitte diese Kennung: <code>${requestId}</code>
      </p>`,
  };
}
