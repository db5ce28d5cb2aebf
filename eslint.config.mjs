// The linter of `make lint`: the recommended rules of ESLint and typescript-eslint, plus
// the type-aware rules that catch real bugs in this code (a promise nobody awaits, a
// promise where a boolean or a void callback is expected), and the layering of lib/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_GLOBALS = Object.fromEntries(
  ['process', 'Buffer', 'console', 'URL', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'coverage/', '.cache/', 'node_modules/', 'test/fixtures/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // tsc's noUnusedLocals/noUnusedParameters already say it; `_name` marks one kept on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    rules: {
      // Control characters are what tenant and server text is checked for (they could break a
      // line of output or an engine's config): the patterns name them on purpose.
      'no-control-regex': 'off',
      // `l`: V8's linear-time engine (lib/plugin/linear-regexp.ts).
      'no-invalid-regexp': ['error', { allowConstructorFlags: ['l'] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: NODE_GLOBALS, sourceType: 'module' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...NODE_GLOBALS, require: 'readonly', module: 'writable', __dirname: 'readonly' } },
  },
  // The runtime and HTTP layers know nothing of clusters or VMs; the two domains share only them.
  {
    files: ['lib/plugin/**', 'lib/http/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/cluster/**', '**/vcd/**'], message: 'lib/plugin and lib/http know nothing of clusters or VMs' }] },
      ],
    },
  },
  {
    files: ['lib/vcd/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/cluster/**'], message: 'lib/vcd does not import lib/cluster: move what both need to lib/plugin or lib/http' }] },
      ],
    },
  },
  {
    files: ['lib/cluster/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/vcd/**'], message: 'lib/cluster does not import lib/vcd: move what both need to lib/plugin or lib/http' }] },
      ],
    },
  },
);
