const preset = require('../jest.preset.js');

module.exports = { ...preset, rootDir: __dirname, displayName: 'bench' };
