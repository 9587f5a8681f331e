/** The version setting the site was built with: local, staging or production. */
export const SITE_VERSION = process.env.NEXT_PUBLIC_SITE_VERSION ?? 'local';

/** Shown on every page of a staging build, so nobody mistakes it for the live shop. */
export function StagingNotice({ version = SITE_VERSION }: { version?: string }) {
  if (version !== 'staging') return null;
  return (
    <p className="staging-notice" role="note">
      Staging site: orders placed here are not real and will not be delivered.
    </p>
  );
}
