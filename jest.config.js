module.exports = {
  projects: [
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/libs/*/jest.config.js',
    '<rootDir>/tools/*/jest.config.js',
    '<rootDir>/bench/jest.config.js',
  ],
  // A global option: the projects' own (jest.preset.js) applies only when a project runs alone.
  testTimeout: 30000,
};
