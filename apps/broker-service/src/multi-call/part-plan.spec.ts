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
