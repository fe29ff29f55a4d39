import {
  checkPasswordPolicy,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PasswordWeakness,
} from '@broker/auth';
import type { FormProblem } from '../customer-pages/page-shell.js';

export type PasswordField = 'password' | 'repeat';
export type PasswordProblem = FormProblem<PasswordField>;

/** The platform's password rule a password breaks, in the customer's language. */
function weaknessMessage(weakness: PasswordWeakness): string {
  switch (weakness.kind) {
    case 'too-short':
      return `Das Passwort muss mindestens ${PASSWORD_MIN_LENGTH} Zeichen lang sein.`;
    case 'too-long':
      return `Das Passwort darf höchstens ${PASSWORD_MAX_LENGTH} Zeichen lang sein.`;
    case 'blank':
      return 'Das Passwort darf nicht nur aus Leerzeichen bestehen.';
    case 'contains-user-name':
      return 'Das Passwort darf Ihren Benutzernamen nicht enthalten.';
    case 'too-easy': {
      const why = weakness.warning ? `${weakness.warning} ` : '';
      return `Dieses Passwort ist zu leicht zu erraten. ${why}Wählen Sie zum Beispiel mehrere Wörter, die nicht zusammengehören.`;
    }
  }
}

/**
 * A customer's password: the platform's password rules (checkPasswordPolicy of @broker/auth, the customer's and
 * broker's names counting as easy), typed the same twice. Returns the normalised password, or what is wrong with it
 * in the customer's language.
 */
export function checkPassword(
  password: string,
  repeat: string,
  owner: { userName: string | null; personalWords: readonly string[] },
): { password: string } | { problems: PasswordProblem[] } {
  const checked = checkPasswordPolicy(password, owner);
  if ('weakness' in checked) return problem('password', weaknessMessage(checked.weakness));
  if (repeat.normalize('NFC') !== checked.password)
    return problem(
      'repeat',
      'Die beiden Eingaben stimmen nicht überein. Bitte wiederholen Sie das Passwort.',
    );
  return checked;
}

function problem(field: PasswordField, message: string): { problems: PasswordProblem[] } {
  return { problems: [{ field, message }] };
}
