// @ts-check
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';

export default defineConfig(
  { ignores: ['dist/', '.astro/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/'] },
  ...tseslint.configs.recommended,
  ...astro.configs['flat/recommended'],
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Browser code logs only warnings and errors; scripts and the server may print.
    files: ['src/components/**', 'src/stores/**', 'src/shared/**', 'src/pages/**', 'src/layouts/**'],
    rules: { 'no-console': ['warn', { allow: ['warn', 'error'] }] },
  },
  {
    // UI code must never import server code (DESIGN.md): islands and stores talk to the server over HTTP.
    files: ['src/components/islands/**', 'src/stores/**', 'src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'Islands, stores and shared code must not import server code.' },
          ],
        },
      ],
    },
  },
);
