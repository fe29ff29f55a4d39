import type { RequestPart } from './batch-reader.js';
import { planParts, stepsOf } from './part-plan.js';

const BASE = '/service/demo/broker/v1/rest';

const part = (id: string, method: string, path: string, body = ''): RequestPart => ({
  headers: { 'content-id': id, 'x-svc-method': method, 'x-svc-path': path },
  body: Buffer.from(body),
});

describe('stepsOf', () => {
  it('lets consecutive reads share a step and gives every write one of its own', () => {
    const planned = planParts(
      [
        part('<1>', 'GET', '/laender'),
        part('<2>', 'GET', '/V1000/gesellschaften'),
        part('<3>', 'PATCH', '/vermittler/V1003', '{}'),
        part('<4>', 'get', '/laender'),
        part('<5>', 'HEAD', '/laender'),
        part('<6>', 'GET', '/../outside'),
        part('<7>', 'GET', '/01_01/kunden/unterschriftenlinks/_senden', '{"Art":"maklervollmacht"}'),
        part('<8>', 'DELETE', '/x'),
        part('<9>', 'DELETE', '/y'),
        part('<10>', 'GET', '/laender'),
      ],
      BASE,
    );
    expect(stepsOf(planned)).toEqual([[0, 1], [2], [3, 4, 5], [6], [7], [8], [9]]);
  });

  it('keeps a batch of writes one by one', () => {
    const planned = planParts([part('<1>', 'POST', '/a', '{}'), part('<2>', 'PUT', '/b', '{}')], BASE);
    expect(stepsOf(planned)).toEqual([[0], [1]]);
  });
});

describe('planParts', () => {
  it('forwards the call headers, Last-Modified as If-Modified-Since, not those steering the batch or its origin', () => {
    const [planned] = planParts(
      [
        {
          headers: {
            'content-id': '<1>',
            'x-svc-method': 'get',
            'x-svc-path': '/laender?x=1',
            'last-modified': 'Sat, 21 Nov 2026 00:00:00 GMT',
            host: 'elsewhere.example',
            forwarded: 'for=6.6.6.6',
            'x-forwarded-for': '6.6.6.6',
            'x-forwarded-host': 'elsewhere.example',
            'x-forwarded-proto': 'http',
            'content-length': '99',
            'x-svc-timezone': 'Europe/Vienna',
          },
          body: Buffer.alloc(0),
        },
      ],
      BASE,
    );
    expect(planned).toEqual({
      contentId: '<1>',
      call: {
        method: 'GET',
        path: `${BASE}/laender?x=1`,
        headers: { 'if-modified-since': 'Sat, 21 Nov 2026 00:00:00 GMT', 'x-svc-timezone': 'Europe/Vienna' },
        body: Buffer.alloc(0),
      },
    });
  });

  it('gives a part a problem for a header name or value HTTP cannot carry', () => {
    const withHeader = (name: string, value: string): RequestPart => {
      const laender = part(`<${name}: ${value}>`, 'GET', '/laender');
      return { ...laender, headers: { ...laender.headers, [name]: value } };
    };
    const planned = planParts(
      [withHeader('x note', 'a'), withHeader('x-note', 'Preis in €'), withHeader('x-note', 'Grüße')],
      BASE,
    );
    expect(planned.map((planned) => ('problem' in planned ? planned.problem : 'runs'))).toEqual([
      expect.stringContaining('x note'),
      expect.stringContaining('x-note'),
      'runs',
    ]);
  });
});

describe('planParts: Content-Transfer-Encoding of a part', () => {
  const json = '{"Ort":"Köln","Hinweis":"Straße = 1"}';
  const encoded = (encoding: string, body: string | Buffer): RequestPart => {
    const patch = part('<1>', 'PATCH', '/vermittler/V1003');
    return {
      headers: { ...patch.headers, 'content-transfer-encoding': encoding },
      body: Buffer.from(body),
    };
  };
  const planned = (request: RequestPart) => {
    const [plan] = planParts([request], BASE);
    return 'call' in plan ? { body: plan.call.body.toString('utf8'), headers: plan.call.headers } : plan;
  };

  it.each([
    [
      'base64 in MIME lines',
      'BASE64',
      Buffer.from(json)
        .toString('base64')
        .replace(/(.{20})/g, '$1\r\n'),
    ],
    ['quoted-printable', 'quoted-printable', '{"Ort":"K=C3=B6ln","Hinweis":"Stra=C3=9Fe =3D=\r\n 1"}'],
    ['8bit', '8bit', json],
    ['binary', 'binary', json],
    ['7bit', '7bit', json],
  ])('decodes %s and forwards the call without the header', (_name, encoding, body) => {
    expect(planned(encoded(encoding, body))).toEqual({ body: json, headers: {} });
  });

  it('gives a part an unknown encoding as its problem, naming it', () => {
    expect(planned(encoded('x-gzip', json))).toEqual({
      contentId: '<1>',
      problem: expect.stringContaining('x-gzip'),
    });
  });

  it.each([
    ['JSON', json],
    ['one letter', 'A'],
    ['padding alone', '='],
    ['a group cut short', 'eyJPcnQi=x'],
  ])('gives a base64 part that is not base64 (%s) a problem', (_name, body) => {
    expect(planned(encoded('base64', body))).toEqual({
      contentId: '<1>',
      problem: expect.stringContaining('not valid base64'),
    });
  });

  it('takes an empty Content-Transfer-Encoding for 7bit', () => {
    expect(planned(encoded('', json))).toEqual({ body: json, headers: {} });
  });
});
