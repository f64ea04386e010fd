// Lint: type-aware rules for promise handling, import cycles, and the layers (see docs/architecture.md).
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const restrict = (paths, patterns) => ['error', { paths, patterns }];
const noVscode = { name: 'vscode', message: 'Only src/extension may import vscode.' };
const adapters = (...layers) =>
  layers.map((layer) => ({ group: [`**/${layer}/**`, `**/${layer}`], message: `Do not import src/${layer} here.` }));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-host/**',
      '.test-output/**',
      'test/vscode-runner/**',
      'test/integration/probe/dist/**',
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        // First match wins: browser code and the worker have their own lib/types.
        project: [
          './tsconfig.webview.json',
          './tsconfig.worker.json',
          './tsconfig.json',
          './tools/llama-engine/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // CommonJS on purpose: literal require() is how the bundler splits each vocabulary into a lazily loaded file.
      '@typescript-eslint/no-require-imports': 'off',
      // The terminal and text sanitisers match control characters on purpose.
      'no-control-regex': 'off',
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      // Prettier wraps code at 120; this catches what it leaves (comments).
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': restrict([noVscode], adapters('extension', 'cli', 'webview')) },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': restrict([noVscode], adapters('extension', 'webview')) },
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: { 'no-restricted-imports': restrict([], adapters('cli')) },
  },
  {
    files: ['src/extension/analysis/analysis.worker.ts'],
    rules: { 'no-restricted-imports': restrict([noVscode], adapters('cli', 'webview')) },
  },
  {
    files: ['src/webview/**/*.ts'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': restrict(
        [noVscode, ...nodeBuiltins.map((name) => ({ name, message: 'Webviews run in the browser: no Node modules.' }))],
        adapters('extension', 'cli'),
      ),
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
);
