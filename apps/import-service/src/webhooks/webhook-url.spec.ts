import { deliveryAddress, parseWebhookUrl, WebhookUrlRefused } from './webhook-url.js';

const HTTPS_ONLY = { allowHttp: false, allowedHosts: [] };

describe('webhook URLs', () => {
  it('takes https URLs only, without credentials or fragment, unless plain http is allowed (development)', () => {
    expect(parseWebhookUrl('https://hooks.example.com/import?x=1', HTTPS_ONLY).toString()).toBe(
      'https://hooks.example.com/import?x=1',
    );
    for (const url of [
      'http://hooks.example.com/',
      'ftp://example.com/',
      'https://u:p@example.com/',
      'https://example.com/#x',
      'not a url',
      `https://example.com/${'x'.repeat(2000)}`,
      `https://example.com/${'ä'.repeat(400)}`,
    ])
      expect(() => parseWebhookUrl(url, HTTPS_ONLY)).toThrow();
    expect(parseWebhookUrl('http://hooks.example.com/', { ...HTTPS_ONLY, allowHttp: true }).protocol).toBe(
      'http:',
    );
  });

  it.each([
    '127.0.0.1',
    '127.8.0.1',
    '[::1]',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '[fc00::1]',
    '[fe80::1]',
    '[::ffff:127.0.0.1]',
    '[::127.0.0.1]',
    '[::10.0.0.1]',
    '[::169.254.169.254]',
    '224.0.0.1',
  ])('refuses %s at delivery unless allowed', async (host) => {
    await expect(deliveryAddress(new URL(`https://${host}/hook`), HTTPS_ONLY)).rejects.toThrow(
      WebhookUrlRefused,
    );
  });

  it('allows a host by name or a range by CIDR, and public addresses as they are', async () => {
    await expect(
      deliveryAddress(new URL('https://10.1.2.3/'), { ...HTTPS_ONLY, allowedHosts: ['10.0.0.0/8'] }),
    ).resolves.toEqual({
      address: '10.1.2.3',
      family: 4,
    });
    await expect(
      deliveryAddress(new URL('https://[::1]/'), { ...HTTPS_ONLY, allowedHosts: ['::1'] }),
    ).resolves.toEqual({
      address: '::1',
      family: 6,
    });
    await expect(deliveryAddress(new URL('https://93.184.215.14/'), HTTPS_ONLY)).resolves.toMatchObject({
      address: '93.184.215.14',
    });
    await expect(deliveryAddress(new URL('https://name.invalid/'), HTTPS_ONLY)).rejects.toThrow(
      WebhookUrlRefused,
    );
  });

  it('says a name is not public without saying what it resolves to', async () => {
    const refusal = await deliveryAddress(new URL('https://localhost/hook'), HTTPS_ONLY).catch(
      (error: unknown) => error as Error,
    );
    expect(refusal).toBeInstanceOf(WebhookUrlRefused);
    expect((refusal as Error).message).toBe(
      'The host localhost is not public: an address it resolves to is not (allow it in WEBHOOK_ALLOWED_HOSTS)',
    );
    expect((refusal as Error).message).not.toMatch(/127\.0\.0\.1|::1/);
  });
});
