module.exports = {
  projects: ['<rootDir>/apps/*/jest.config.js', '<rootDir>/libs/*/jest.config.js', '<rootDir>/tools/*/jest.config.js'],
};
