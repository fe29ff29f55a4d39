import type { LinkForm } from '../customer-pages/link-page.controller.js';
import { berlinDateTime } from '../customer-pages/berlin-time.js';
import { html } from '../customer-pages/html.js';
import {
  brokerContact,
  errorSummary,
  type Page,
  type PageContext,
  unknownLinkPage,
} from '../customer-pages/page-shell.js';
import { PASSWORD_EXAMPLE, PASSWORD_MIN_LENGTH } from '@broker/auth';
import type { PasswordField, PasswordProblem } from './password-rules.js';
import type { PasswordLink } from './password.repository.js';
import type { PasswordLinkOutcome, SetPasswordOutcome } from './password.service.js';

const FIELD_IDS: Record<PasswordField, string> = { password: 'passwort', repeat: 'passwort-wiederholung' };

/** The page of an outcome; a refused form never shows the passwords again. */
export function passwordOutcomePage(
  context: PageContext,
  outcome: PasswordLinkOutcome | SetPasswordOutcome,
  { token, csrf }: LinkForm,
): Page {
  switch (outcome.state) {
    case 'unknown':
      return unknownLinkPage();
    case 'used':
      return usedLinkPage(outcome.link);
    case 'expired':
      return expiredLinkPage(outcome.link);
    case 'open':
      return formPage(context, outcome.link, { token, csrf }, []);
    case 'invalid':
      return formPage(context, outcome.link, { token, csrf }, outcome.problems);
    case 'set':
      return passwordSetPage(outcome.link, outcome.setAt);
  }
}

function formPage(
  context: PageContext,
  link: PasswordLink,
  form: LinkForm,
  problems: PasswordProblem[],
): Page {
  const invalid = (field: PasswordField) =>
    problems.some((problem) => problem.field === field) ? html` aria-invalid="true"` : null;
  const { userName } = link.customer;
  return {
    status: problems.length > 0 ? 400 : 200,
    title: `Passwort festlegen – ${link.broker.name}`,
    content: html`<p class="broker">${link.broker.name}</p>
      <h1>Passwort festlegen</h1>
      <p class="lead">
        Legen Sie hier das Passwort für Ihren Zugang bei ${link.broker.name} fest. Der Link ist gültig bis
        ${berlinDateTime(link.expiresAt)} und kann einmal verwendet werden.
      </p>
      <form method="post" action="${context.base}" class="password" novalidate>
        ${problems.length > 0 ? errorSummary(problems, FIELD_IDS) : null}
        <input type="hidden" name="token" value="${form.token}" />
        <input type="hidden" name="csrf" value="${form.csrf}" />
        ${
          userName
            ? html`<label for="benutzername">Ihr Benutzername</label>
                <input
                  type="text"
                  id="benutzername"
                  name="username"
                  value="${userName}"
                  autocomplete="username"
                  readonly
                />`
            : null
        }
        <label for="passwort">Neues Passwort</label>
        <p id="passwort-hinweis" class="hint">
          Mindestens ${PASSWORD_MIN_LENGTH} Zeichen. Am sichersten sind mehrere Wörter, die nicht
          zusammengehören, zum Beispiel „${PASSWORD_EXAMPLE}“; Ziffern und Sonderzeichen sind nicht nötig.
        </p>
        <input
          type="password"
          id="passwort"
          name="password"
          autocomplete="new-password"
          aria-describedby="passwort-hinweis"
          ${invalid('password')}
        />
        <label for="passwort-wiederholung">Passwort wiederholen</label>
        <input
          type="password"
          id="passwort-wiederholung"
          name="repeat"
          autocomplete="new-password"
          ${invalid('repeat')}
        />
        <button type="submit" class="primary">Passwort speichern</button>
      </form>`,
  };
}

function passwordSetPage(link: PasswordLink, setAt: Date): Page {
  const { userName } = link.customer;
  return {
    status: 200,
    title: `Passwort gespeichert – ${link.broker.name}`,
    content: html`<p class="broker">${link.broker.name}</p>
      <h1>Ihr Passwort ist gespeichert</h1>
      <p class="lead success" role="status">
        Sie haben Ihr Passwort am ${berlinDateTime(setAt)} festgelegt.
        ${userName ? html`Sie melden sich mit dem Benutzernamen <strong>${userName}</strong> und diesem Passwort an.` : null}
      </p>
      <p>Der Link ist damit verbraucht. Sie können dieses Fenster jetzt schließen.</p>`,
  };
}

function usedLinkPage(link: PasswordLink): Page {
  const usedAt = link.usedAt ? ` am ${berlinDateTime(link.usedAt)}` : '';
  return {
    status: 410,
    title: 'Link bereits verwendet',
    content: html`<h1>Dieser Link wurde bereits verwendet</h1>
      <p class="lead">
        Mit diesem oder einem anderen Link für Ihren Zugang wurde${usedAt} bereits ein Passwort festgelegt;
        jeder Link gilt nur einmal.
      </p>
      ${brokerContact(
        link.broker,
        'Wenn Sie das nicht selbst waren oder ein neues Passwort brauchen, wenden Sie sich bitte an Ihren Makler:',
      )}`,
  };
}

function expiredLinkPage(link: PasswordLink): Page {
  return {
    status: 410,
    title: 'Link abgelaufen',
    content: html`<h1>Dieser Link ist abgelaufen</h1>
      <p class="lead">Der Link war bis ${berlinDateTime(link.expiresAt)} gültig.</p>
      ${brokerContact(link.broker, 'Bitte fordern Sie bei Ihrem Makler einen neuen Link an:')}`,
  };
}
