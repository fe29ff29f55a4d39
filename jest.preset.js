// Shared jest settings for every project: SWC compiles TypeScript and the ESM-only packages
// (Nest 12, jose, ...) to CommonJS, so nothing in node_modules is left untransformed.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  transform: {
    '^.+\\.(t|j|mj|cj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [],
  moduleNameMapper: {
    '^@broker/([a-z-]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  globalSetup: path.join(__dirname, 'libs/testing/dist/jest-global-setup.js'),
  testTimeout: 30000,
};
