import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as commonLanguage from '@zxcvbn-ts/language-common';
import * as germanLanguage from '@zxcvbn-ts/language-de';

/** Lengths in characters (Unicode code points, after NFC normalisation). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
/**
 * zxcvbn's score from 0 to 4; 4 means "very unguessable: strong protection from offline attacks" (more than 10^10
 * guesses). 3 let a word, a year and a sign through (`Passwort2024!`: German words are in its dictionary, not in its
 * list of common passwords).
 */
export const PASSWORD_MIN_SCORE = 4;

/** The customers' page's example of a good password: taken as is, it is the easiest of all to guess. */
export const PASSWORD_EXAMPLE = 'Fahrrad Nebel Tasse Ufer';

/** The characters the strength estimate reads: its time grows with the length (0.3 s at 128). */
const STRENGTH_CHECKED_LENGTH = 64;

/** argon2id (the library's `Algorithm.Argon2id`) with its defaults: m = 19 MiB, t = 2, p = 1, as OWASP recommends. */
const ARGON2ID = 2;

/** What is wrong with a password; `too-easy` carries zxcvbn's warning (German), if it has one. */
export type PasswordWeakness =
  | { kind: 'too-short' | 'too-long' | 'blank' | 'contains-user-name' }
  | { kind: 'too-easy'; warning: string | undefined };

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
 * The platform's password rules (NIST SP 800-63B style: length and a strength estimate, no composition rules), for
 * customers' and calculation users' passwords alike: 10 to 128 characters, not only blanks, not containing the user
 * name, and very hard to guess by zxcvbn's estimate (score 4 of 4), counting common passwords, German and English
 * words, names, keyboard rows, dates and `personalWords` (each of the owner's names) as easy.
 * Returns the password normalised (NFC), or its weakness.
 */
export function checkPasswordPolicy(
  password: string,
  { userName, personalWords = [] }: { userName: string | null; personalWords?: readonly string[] },
): { password: string } | { weakness: PasswordWeakness } {
  const normalised = password.normalize('NFC');
  const length = [...normalised].length;
  if (length < PASSWORD_MIN_LENGTH) return { weakness: { kind: 'too-short' } };
  if (length > PASSWORD_MAX_LENGTH) return { weakness: { kind: 'too-long' } };
  if (normalised.trim() === '') return { weakness: { kind: 'blank' } };
  if (userName && normalised.toLowerCase().includes(userName.toLowerCase()))
    return { weakness: { kind: 'contains-user-name' } };
  const strength = strengthEstimator().check(normalised, [...personalWords, PASSWORD_EXAMPLE]);
  if (strength.score < PASSWORD_MIN_SCORE)
    return { weakness: { kind: 'too-easy', warning: strength.feedback.warning || undefined } };
  return { password: normalised };
}

/** The stored form of a password that passed the policy: an argon2id hash. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

/**
 * Whether `password` is the one `passwordHash` was made of (false for a hash that cannot be read): the policy stores
 * the NFC form, so `Mü` typed decomposed (as some keyboards send it) matches too. A hash made before the policy holds
 * the password as it was typed, which is tried second.
 */
export async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  const matches = (candidate: string) => verify(passwordHash, candidate).catch(() => false);
  const normalised = password.normalize('NFC');
  return (await matches(normalised)) || (normalised !== password && (await matches(password)));
}
