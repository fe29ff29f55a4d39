import { type DynamicModule, type INestApplication, Module } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { ErrorProbeController } from './error-probe.js';

export type ErrorShape = 'api' | 'meldungen';

/** The body a client error must have in the area's shape. */
export function expectedClientError(
  shape: ErrorShape,
  status: number,
  name: string,
  messages: string[],
): object {
  if (shape === 'meldungen') return { Meldungen: messages };
  const anyCode: unknown = expect.any(Number);
  return { name, message: messages.join('; '), code: anyCode, status };
}

export interface ErrorShapeSuiteSettings {
  shape: ErrorShape;
  /** Boots the app's real root module; the suite mounts the error probe beside it. */
  createApp(rootModule: DynamicModule): Promise<INestApplication>;
  appModule(): Promise<DynamicModule>;
}

/**
 * The error conventions every area shares, tested through the app's own modules: client errors in the
 * area's shape, every failing field named, unknown routes, malformed JSON, and server faults as an HTML
 * page with the request id and no stack trace or internal message.
 */
export function describeErrorShapes(settings: ErrorShapeSuiteSettings): void {
  const { shape } = settings;
  let app: INestApplication;
  const server = () => app.getHttpServer() as App;

  beforeAll(async () => {
    @Module({ imports: [await settings.appModule()], controllers: [ErrorProbeController] })
    class ProbedAppModule {}
    app = await settings.createApp({ module: ProbedAppModule });
    await app.init();
  });

  afterAll(() => app?.close());

  it('answers a domain error in the area shape', async () => {
    const response = await request(server()).get('/__probe/conflict').expect(409);
    expect(response.body).toEqual(
      expectedClientError(shape, 409, 'Conflict', ['The user name is already taken']),
    );
  });

  it('names every failing field of a validation error', async () => {
    const response = await request(server())
      .post('/__probe/validate')
      .send({ birthdate: 'yesterday', address: { postalCode: '1234567' }, extra: 1 })
      .expect(400);
    const messages = [
      'birthdate must be an integer number',
      'name must be a string',
      'address.postalCode must be shorter than or equal to 5 characters',
      'property extra should not exist',
    ];
    const body = response.body as { Meldungen?: string[]; message?: string };
    const text = shape === 'meldungen' ? body.Meldungen!.join('; ') : body.message!;
    for (const message of messages) expect(text).toContain(message);
    if (shape === 'api') expect(response.body).toMatchObject({ name: 'ValidationFailed', status: 400 });
  });

  /** A body sent to the probe's DTO route as raw bytes with a JSON content type; the answer must be a 400. */
  const refusedJson = async (body: string | Buffer) =>
    (
      await request(server())
        .post('/__probe/validate')
        .set('Content-Type', 'application/json')
        // As it is: superagent would send a Buffer as JSON of its bytes, and passes what this returns unchanged.
        .serialize((raw: string | Buffer) => raw as string)
        .send(body)
        .expect(400)
    ).body as unknown;

  it('answers a JSON body of another or no media type with a 415 in the area shape, before the handler', async () => {
    const valid = JSON.stringify({ birthdate: 1, name: 'x', address: { postalCode: '12345' } });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const sent = request(server()).post('/__probe/validate');
      // Bytes: superagent gives a string body a form Content-Type of its own, a Buffer none.
      const response = await (contentType ? sent.set('Content-Type', contentType) : sent)
        .send(Buffer.from(valid))
        .expect(415);
      // Fastify refuses a body without Content-Type itself, in the area shape with its own words.
      const what = contentType ? `Content-Type ${contentType}` : 'Content-Type';
      const messages = shape === 'meldungen' ? (response.body as { Meldungen: string[] }).Meldungen : [];
      const message =
        shape === 'meldungen' ? messages.join() : (response.body as { message: string }).message;
      expect(message).toContain(what);
      if (shape === 'api') expect(response.body).toMatchObject({ name: 'UnsupportedMediaType', status: 415 });
      else expect(messages).toHaveLength(1);
    }
    await request(server())
      .post('/__probe/validate')
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(valid)
      .expect(201);
  });

  it('answers malformed JSON with a 400 in the area shape', async () => {
    expect(await refusedJson('{"birthdate": ')).toEqual(
      expectedClientError(shape, 400, 'MalformedRequest', ['The request body is not valid JSON']),
    );
  });

  it('refuses a NUL character in a path parameter before any guard looks it up', async () => {
    const response = await request(server()).get('/__probe/echo/a%00b').expect(400);
    expect(response.body).toEqual(
      expectedClientError(shape, 400, 'ValidationFailed', ['value must not contain NUL characters']),
    );
    await request(server()).get('/__probe/echo/a%20b').expect(200, { value: 'a b' });
  });

  it('answers a path that is not valid percent-encoding with a 400 in the area shape and a request id', async () => {
    const response = await request(server())
      .get('/__probe/echo/%zz')
      .set('X-Request-ID', 'bad-url-1')
      .expect(400);
    expect(response.headers['x-request-id']).toBe('bad-url-1');
    expect(response.body).toEqual(
      expectedClientError(shape, 400, 'MalformedRequest', ['The path is not valid percent-encoding']),
    );
  });

  it('refuses JSON nested too deeply with a 400, not a stack overflow', async () => {
    const depth = 3_000;
    expect(await refusedJson(`{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`)).toEqual(
      expectedClientError(shape, 400, 'ValidationFailed', [
        'The request body is nested more than 32 levels deep',
      ]),
    );
  });

  it('refuses text that is not Unicode (an unpaired surrogate) rather than storing a replacement character', async () => {
    expect(await refusedJson('{"name":"M\\ud800ller"}')).toEqual(
      expectedClientError(shape, 400, 'ValidationFailed', [
        'name must not contain unpaired surrogates (it is not Unicode text)',
      ]),
    );
  });

  it('refuses __proto__, constructor and prototype keys as it refuses any unknown field', async () => {
    const valid = '"birthdate":1,"name":"x","address":{"postalCode":"12345"}';
    for (const [body, key] of [
      [`{${valid},"__proto__":{"name":"y"}}`, '__proto__'],
      [`{${valid},"constructor":{"prototype":{"name":"y"}}}`, 'constructor'],
      [`{"birthdate":1,"name":"x","address":{"postalCode":"12345","prototype":1}}`, 'address.prototype'],
    ])
      expect(await refusedJson(body)).toEqual(
        expectedClientError(shape, 400, 'ValidationFailed', [`property ${key} should not exist`]),
      );
  });

  it('refuses a JSON body that is not UTF-8', async () => {
    expect(await refusedJson(Buffer.from('{"name":"M\xfcller"}', 'latin1'))).toEqual(
      expectedClientError(shape, 400, 'MalformedRequest', ['The request body is not valid UTF-8']),
    );
  });

  it('answers an unknown route with a 404 in the area shape', async () => {
    const response = await request(server()).delete('/no/such/route').expect(404);
    expect(response.body).toEqual(
      expectedClientError(shape, 404, 'RouteNotFound', ['No resource at DELETE /no/such/route']),
    );
  });

  it('answers a server fault with an HTML page carrying the request id, without stack or message', async () => {
    const response = await request(server())
      .get('/__probe/fault')
      .set('X-Request-ID', 'fault-probe-1')
      .expect(500);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['x-request-id']).toBe('fault-probe-1');
    expect(response.text).toContain('fault-probe-1');
    expect(response.text).not.toContain('hunter2');
    expect(response.text).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('propagates an incoming X-Request-ID and generates one otherwise', async () => {
    const given = await request(server()).get('/health/live').set('X-Request-ID', 'abc-123').expect(200);
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await request(server()).get('/health/live').expect(200);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await request(server())
      .get('/health/live')
      .set('X-Request-ID', 'a b<script>')
      .expect(200);
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
}
