import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * Apps depend on libs, never on other apps; libs never on apps. Production code of the shared libs may not
 * use the development libs (testing, local-services); test code may. Pure libs (kind:pure) stay free of
 * Nest and database code.
 */
function moduleBoundaries({ testCode }) {
  const depConstraints = [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'kind:pure', bannedExternalImports: ['@nestjs/*', 'typeorm', 'pg', 'ioredis', 'bullmq'] },
  ];
  if (!testCode)
    depConstraints.push({ sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] });
  return ['error', { enforceBuildableLibDependency: true, depConstraints }];
}

const focusedTests = ['describe', 'it', 'test'].flatMap((object) => [
  { object, property: 'only', message: 'Focused tests silently skip the rest of the suite.' },
]);

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '.local/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', ...focusedTests],
      '@nx/enforce-module-boundaries': moduleBoundaries({ testCode: false }),
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@nx/enforce-module-boundaries': moduleBoundaries({ testCode: true }),
    },
  },
  prettier,
);
