import { loggableUrl } from './redaction.js';

describe('loggableUrl', () => {
  it.each([
    ['/service/demo/unterschrift?token=abc-DEF_123', '/service/demo/unterschrift?token=[redacted]'],
    ['/x?a=1&token=secret&b=2', '/x?a=1&token=[redacted]&b=2'],
    ['/admin/console/callback?code=abc.DEF&state=s1', '/admin/console/callback?code=[redacted]&state=s1'],
    ['/x?Token=secret#top', '/x?Token=[redacted]#top'],
    ['/x?notoken=1&tokens=2', '/x?notoken=1&tokens=2'],
    ['/x?%74oken=secret&a=%74oken', '/x?%74oken=[redacted]&a=%74oken'],
    ['/x?a=1&TOKEN=secret', '/x?a=1&TOKEN=[redacted]'],
    ['/x?%E0=1&token', '/x?%E0=1&token'],
    ['/service/demo/unterschrift', '/service/demo/unterschrift'],
  ])('logs %s as %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });
});
