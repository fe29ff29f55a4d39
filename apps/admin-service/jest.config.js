module.exports = {
  ...require('../../jest.preset.js'),
  rootDir: __dirname,
  displayName: 'admin-service',
  // Every supertest response of the suites is checked against the service's OpenAPI document.
  setupFilesAfterEnv: [require.resolve('../../libs/testing/src/documented-responses.setup.ts')],
};
