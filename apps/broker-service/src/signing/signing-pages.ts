import { type Html, html } from '../customer-pages/html.js';
import {
  brokerContact,
  errorSummary,
  type Page,
  type PageContext,
  unknownLinkPage,
} from '../customer-pages/page-shell.js';
import {
  type SignatureField,
  type SignatureProblem,
  type SigningForm,
  SIGNATURE_PAD,
  TYPED_NAME_MAX_LENGTH,
} from './signature-form.js';
import { berlinDateTime } from '../customer-pages/berlin-time.js';
import type { SignedMandate } from './signed-mandate.js';
import type { LinkOutcome, SignOutcome, SigningView } from './signing.service.js';

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

function formPage(
  context: PageContext,
  view: SigningView,
  form: SigningForm,
  problems: SignatureProblem[],
): Page {
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
        ${problems.length > 0 ? errorSummary(problems, FIELD_IDS) : null}
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
      ${brokerContact(view.link.broker, 'Bei Fragen wenden Sie sich bitte an Ihren Makler:')}`,
  };
}

function expiredLinkPage(view: SigningView): Page {
  return {
    status: 410,
    title: 'Link abgelaufen',
    content: html`<h1>Dieser Link ist abgelaufen</h1>
      <p class="lead">Der Link war bis ${berlinDateTime(view.link.expiresAt)} gültig.</p>
      ${brokerContact(view.link.broker, 'Bitte fordern Sie bei Ihrem Makler einen neuen Link an:')}`,
  };
}
