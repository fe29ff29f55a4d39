const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  rootDir: __dirname,
  displayName: 'dev',
  // axe-core's bundle is injected into browser pages as it is; compiled for Node it would lose its `this`.
  transformIgnorePatterns: ['/node_modules/\\.pnpm/axe-core@'],
};
