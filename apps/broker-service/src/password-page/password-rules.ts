import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as commonLanguage from '@zxcvbn-ts/language-common';
import * as germanLanguage from '@zxcvbn-ts/language-de';
import type { FormProblem } from '../customer-pages/page-shell.js';

/** Lengths in characters (Unicode code points, after NFC normalisation). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
/**
 * zxcvbn's score from 0 to 4; 4 means "very unguessable: strong protection from offline attacks" (more than 10^10
 * guesses). 3 let a word, a year and a sign through (`Passwort2024!`: German words are in its dictionary, not in its
 * list of common passwords).
 */
export const PASSWORD_MIN_SCORE = 4;

/** The page's example of a good password: taken as is, it is the easiest of all to guess. */
export const PASSWORD_EXAMPLE = 'Fahrrad Nebel Tasse Ufer';

export type PasswordField = 'password' | 'repeat';
export type PasswordProblem = FormProblem<PasswordField>;

/** The characters the strength estimate reads: its time grows with the length (0.3 s at 128). */
const STRENGTH_CHECKED_LENGTH = 64;

let estimator: ZxcvbnFactory | undefined;

/** Built on first use: reading the dictionaries takes about half a second. */
function strengthEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    translations: germanLanguage.translations,
    graphs: commonLanguage.adjacencyGraphs,
    dictionary: { ...commonLanguage.dictionary, ...germanLanguage.dictionary },
    maxLength: STRENGTH_CHECKED_LENGTH,
  });
  return estimator;
}

/**
 * The rules of a customer's password (NIST SP 800-63B style: length and a strength estimate, no composition rules):
 * 10 to 128 characters, typed the same twice, not containing the user name, and very hard to guess by zxcvbn's
 * estimate (score 4 of 4), counting common passwords, German and English words, names, keyboard rows, dates and the
 * customer's and broker's names (each of their words) as easy.
 * Returns the normalised password, or what is wrong with it in the customer's language.
 */
export function checkPassword(
  password: string,
  repeat: string,
  { userName, personalWords }: { userName: string | null; personalWords: readonly string[] },
): { password: string } | { problems: PasswordProblem[] } {
  const normalised = password.normalize('NFC');
  const length = [...normalised].length;
  if (length < PASSWORD_MIN_LENGTH)
    return problem('password', `Das Passwort muss mindestens ${PASSWORD_MIN_LENGTH} Zeichen lang sein.`);
  if (length > PASSWORD_MAX_LENGTH)
    return problem('password', `Das Passwort darf höchstens ${PASSWORD_MAX_LENGTH} Zeichen lang sein.`);
  if (normalised.trim() === '')
    return problem('password', 'Das Passwort darf nicht nur aus Leerzeichen bestehen.');
  if (userName && normalised.toLowerCase().includes(userName.toLowerCase()))
    return problem('password', 'Das Passwort darf Ihren Benutzernamen nicht enthalten.');
  const strength = strengthEstimator().check(normalised, [...personalWords, PASSWORD_EXAMPLE]);
  if (strength.score < PASSWORD_MIN_SCORE) {
    const why = strength.feedback.warning ? `${strength.feedback.warning} ` : '';
    return problem(
      'password',
      `Dieses Passwort ist zu leicht zu erraten. ${why}Wählen Sie zum Beispiel mehrere Wörter, die nicht zusammengehören.`,
    );
  }
  if (repeat.normalize('NFC') !== normalised)
    return problem(
      'repeat',
      'Die beiden Eingaben stimmen nicht überein. Bitte wiederholen Sie das Passwort.',
    );
  return { password: normalised };
}

function problem(field: PasswordField, message: string): { problems: PasswordProblem[] } {
  return { problems: [{ field, message }] };
}
