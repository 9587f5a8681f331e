// ESLint for the site: the React hooks rules (eslint-plugin-react-hooks' recommended set,
// the React Compiler's checks included) on every TypeScript file, parsed by
// typescript-eslint's parser. Type errors are tsc's to find, not ESLint's. The test command
// runs it (`scripts/test static`) with --max-warnings=0, so exhaustive-deps warnings fail too.
//
// The parser and the TypeScript it parses with (6.0, the newest its peer range accepts; the
// site and infra compile with their own TypeScript 7, which has no JavaScript API) are
// devDependencies of the root package: Node resolves the parser's `typescript` there.
import tsParser from '@typescript-eslint/parser';
import reactHooks from 'eslint-plugin-react-hooks';

const nextLink = { name: 'next/link', message: "Import Link from '@/components/app/link' (Next's prefetching off)." };
const firebaseOutsideAuth = {
  regex: '^(firebase(/.*)?|@/lib/firebase|\\.\\.?/(.*/)?firebase)$',
  message: 'Call the sign-in provider through lib/auth.ts (@/lib/auth), which loads the SDK only when it is used.',
};

export default [
  { ignores: ['.next/', 'out/', 'node_modules/', 'next-env.d.ts'] },
  {
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } },
  },
  reactHooks.configs.flat.recommended,
  {
    rules: {
      // Off on purpose. Six components set state at the top of an effect, each by design,
      // none a bug: values only the browser knows once the static export has hydrated (the
      // user agent in errors/error-view and errors/not-found-view, location.search in
      // layout/search-form), the menu closed on navigation (layout/header-shell), and a
      // fetch's status reset before it starts (basket/use-basket-changes, search/search-results).
      // Rewriting them (useSyncExternalStore, state keyed by pathname, render-time resets)
      // is a redesign of each component, for its own change; every other rule is on.
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    // Internal links go through components/app/link (prefetching off): the export keeps
    // no per-segment prefetch files, so a next/link prefetch would fetch files that are not
    // there (docs/PERFORMANCE.md, "Lighter pages").
    // The sign-in provider is reached only through lib/auth.ts (docs/accounts.md): nothing
    // else imports the Firebase SDK or lib/firebase.ts, which loads it lazily.
    files: ['**/*.{ts,tsx}'],
    ignores: ['components/app/link.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: [nextLink], patterns: [firebaseOutsideAuth] }],
    },
  },
  {
    files: ['lib/auth.ts', 'lib/auth.test.ts', 'lib/firebase.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [nextLink] }],
    },
  },
];
