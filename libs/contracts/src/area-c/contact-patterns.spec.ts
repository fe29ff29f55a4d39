import { EMAIL_ADDRESS, WEBSITE } from './contact-patterns';

describe('contact patterns', () => {
  it.each(['x@y.de', 'a.b+c@mail.example.co.uk', 'müller@straße.de'])(
    'take %s as an e-mail address',
    (value) => expect(EMAIL_ADDRESS.test(value)).toBe(true),
  );

  it.each(['a@b', 'a@b..de', 'a@.de', 'a@b.de.', 'a b@c.de', 'a@b@c.de', '@b.de'])(
    'refuse %s as an e-mail address',
    (value) => expect(EMAIL_ADDRESS.test(value)).toBe(false),
  );

  // Bodies of up to a megabyte reach these patterns before any length check; a pattern that backtracks over the
  // dots took 10 s for 200,000 characters (jest gives the test 5 s).
  it.each([
    ['dots after the @', `a@${'a.'.repeat(100_000)}@`],
    ['dots led by a dot', `a@${'.a'.repeat(100_000)} `],
    ['a host name that never ends', `http://${'a.'.repeat(100_000)}!`],
  ])('read a long hostile value (%s) at once', (_name, value) => {
    expect(EMAIL_ADDRESS.test(value)).toBe(false);
    expect(WEBSITE.test(value)).toBe(false);
  });
});
