/** SPEC.md's email check (local part, @, a domain or bracketed IP, a top-level domain of
 * at least 2 letters), applied to the lowercased text. functions/internal/api holds the
 * same pattern. */
const emailPattern =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;

export function validEmail(text: string): boolean {
  return emailPattern.test(text.trim().toLowerCase());
}

/** What every form says of an email address it cannot use. */
export const EMAIL_PROBLEM = 'Enter an email address such as buyer@yourshop.co.uk.';

/** EMAIL_PROBLEM when the text is not an email address, else null. */
export function emailProblem(text: string): string | null {
  return validEmail(text) ? null : EMAIL_PROBLEM;
}

/** The minimum password length when the provider's policy gives none (SPEC.md). */
export const DEFAULT_MIN_PASSWORD_LENGTH = 6;

/** The provider's password policy, as far as the form checks it. */
export interface PasswordPolicy {
  minLength?: number;
}

/** The first thing wrong with a password under the policy, or null. */
export function passwordProblem(password: string, policy: PasswordPolicy | null): string | null {
  const min = policy?.minLength ?? DEFAULT_MIN_PASSWORD_LENGTH;
  return password.length < min ? `Use at least ${min} characters for your password.` : null;
}

/** UK and international telephone numbers as people type them, at least 7 digits. */
export function telephoneProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return null;
  return /^\+?[0-9 ()-]{7,24}$/.test(t) && (t.match(/\d/g)?.length ?? 0) >= 7 ? null : 'Enter a telephone number such as 01632 960 123.';
}

/** The characters the API's one text rule refuses in a one-line field
 * (functions/internal/text): controls (C0 with TAB, CR, LF; DEL; C1; U+2028/9), zero-width
 * characters and text-direction controls. The server is the authority; the form checks
 * this only to say so before anything is sent. */
const refusedCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u061c\ufeff\u180e]/;
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** The API's sentence for a one-line text field holding a character its text rule
 * refuses, else null: "Business name must not contain …". */
export function characterProblem(label: string, text: string): string | null {
  // Spaces and line breaks at either end are trimmed away; a BOM (which JavaScript's trim
  // also drops) is refused wherever it is, as the server does.
  const t = text.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
  if (!refusedCharacters.test(t)) return null;
  return controlCharacters.test(t)
    ? `${label} must not contain control characters such as tabs or line breaks.`
    : `${label} must not contain invisible characters such as zero-width spaces or text-direction controls.`;
}

/** Business names are 2 to 100 characters (counted as the server does: trimmed, NFC),
 * without the characters the text rule refuses. */
export function businessProblem(text: string): string | null {
  const n = [...text.trim().normalize('NFC')].length;
  if (n < 2 || n > 100) return 'Enter your business name (2 to 100 characters).';
  return characterProblem('Business name', text);
}
