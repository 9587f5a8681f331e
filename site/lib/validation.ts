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

/** Business names are 2 to 100 characters. */
export function businessProblem(text: string): string | null {
  const n = [...text.trim()].length;
  return n < 2 || n > 100 ? 'Enter your business name (2 to 100 characters).' : null;
}
