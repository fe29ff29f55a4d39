import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  type INestApplication,
  Post,
  Put,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { createTestDatabase, type TestDatabase } from '@broker/testing';
import { createHttpApp, type HttpPlatform } from './http-app.js';
import { BodyMediaTypes, MediaTypeGuard } from './media-type.guard.js';
import { platformTestModule } from '../test/platform-test-module.js';

/** Lets a request through when it says `Authorization: yes`. */
class SaysYesGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const headers = context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers;
    if (headers.authorization !== 'yes') throw new UnauthorizedException();
    return true;
  }
}

/** Requests that reached a handler. */
const handled: string[] = [];

@Controller('guarded')
@UseGuards(SaysYesGuard)
class GuardedController {
  @Put('json')
  json(@Body() body: unknown): unknown {
    handled.push('json');
    return body;
  }

  @Post('text')
  @BodyMediaTypes('text/csv')
  text(): string {
    handled.push('text');
    return 'ok';
  }

  @Get('read')
  read(): string {
    handled.push('read');
    return 'ok';
  }
}

@Controller('open')
class OpenController {
  @Post('json')
  json(@Body() body: unknown): unknown {
    handled.push('open');
    return body;
  }
}

describe.each<HttpPlatform>(['express', 'fastify'])('media-type guard on %s', (platform) => {
  let database: TestDatabase;
  let app: INestApplication;
  const server = () => app.getHttpServer() as App;
  const yes = { Authorization: 'yes' };
  const bytes = Buffer.from('{"a":1}');

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createHttpApp(
      platformTestModule({ service: 'media-type-test', databaseUrl: database.url }, [
        GuardedController,
        OpenController,
      ]),
      { platform },
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });
  beforeEach(() => {
    handled.length = 0;
  });

  it('is the last guard of every operation that takes a body, once however many apps are built', () => {
    const guardsOf = (handler: object) => (Reflect.getMetadata(GUARDS_METADATA, handler) ?? []) as unknown[];
    for (const handler of [
      GuardedController.prototype.json,
      GuardedController.prototype.text,
      OpenController.prototype.json,
    ]) {
      expect(guardsOf(handler)).toEqual([expect.any(MediaTypeGuard)]);
    }
    expect(guardsOf(GuardedController.prototype.read)).toEqual([]);
    expect(Reflect.getMetadata(GUARDS_METADATA, GuardedController)).toEqual([SaysYesGuard]);
  });

  it('answers an unauthenticated body of the wrong type with 401, the authenticated one with 415', async () => {
    await request(server()).put('/guarded/json').set('Content-Type', 'text/plain').send(bytes).expect(401);
    const refused = await request(server())
      .put('/guarded/json')
      .set(yes)
      .set('Content-Type', 'text/plain')
      .send(bytes)
      .expect(415);
    expect(refused.body).toMatchObject({
      name: 'UnsupportedMediaType',
      message: 'The body has Content-Type text/plain; this operation takes application/json',
    });
    expect(handled).toEqual([]);
  });

  it('takes the media types an operation declares, and JSON where it reads @Body()', async () => {
    await request(server()).put('/guarded/json').set(yes).send({ a: 1 }).expect(200, { a: 1 });
    await request(server()).post('/open/json').send({ a: 1 }).expect(201, { a: 1 });
    await request(server()).post('/open/json').set('Content-Type', 'application/xml').send(bytes).expect(415);
    await request(server())
      .post('/guarded/text')
      .set(yes)
      .set('Content-Type', 'application/json')
      .send(bytes)
      .expect(415);
    expect(handled).toEqual(['json', 'open']);
  });

  it('leaves a request without a body, and an operation that takes none, alone', async () => {
    await request(server()).put('/guarded/json').set(yes).expect(200);
    await request(server()).get('/guarded/read').set(yes).set('Content-Type', 'text/plain').expect(200);
    expect(handled).toEqual(['json', 'read']);
  });
});
