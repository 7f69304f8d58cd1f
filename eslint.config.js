import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { layersConfig } from './eslint.layers.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/.builds/**', '**/node_modules/**', 'data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe)$/]",
          message: 'Focused tests hide the rest of the suite.',
        },
        {
          selector: "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|test|describe)$/]",
          message: 'A skipped test hides a failure: fix it or delete it.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  layersConfig,
);
