import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { createTestDatabase, type TestDatabase } from '@broker/testing';
import { createHttpApp, type HttpPlatform } from './http-app.js';
import { METRICS_PATH } from './metrics.js';
import { platformTestModule } from '../test/platform-test-module.js';

@Controller('things')
class ThingsController {
  @Get(':id')
  thing(@Param('id') id: string): { id: string } {
    if (id === 'missing') throw new NotFoundException();
    return { id };
  }
}

/** The value of one sample line of the exposition, undefined when the line is absent. */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  const line = exposition
    .split('\n')
    .find(
      (candidate) =>
        candidate.startsWith(`${name}{`) &&
        Object.entries(labels).every(([label, value]) => candidate.includes(`${label}="${value}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe.each<HttpPlatform>(['express', 'fastify'])('Prometheus metrics on %s', (platform) => {
  let database: TestDatabase;
  let app: INestApplication;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createHttpApp(
      platformTestModule({ service: 'metrics-test', databaseUrl: database.url }, [ThingsController]),
      { platform },
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('counts requests by method, route template and status, and times them', async () => {
    const server = app.getHttpServer() as App;
    await request(server).get('/things/1').expect(200);
    await request(server).get('/things/2').expect(200);
    await request(server).get('/things/missing').expect(404);
    await request(server).get('/nowhere/at/all').expect(404);
    await request(server)
      .post('/things/1')
      .set('Content-Type', 'application/json')
      .send('{"broken": ')
      .expect(400);
    await request(server).get('/things/%zz').expect(400);

    const response = await request(server).get(METRICS_PATH).expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const exposition = response.text;
    const route = { method: 'GET', route: '/things/:id', service: 'metrics-test' };
    expect(sample(exposition, 'http_requests_total', { ...route, status: '200' })).toBe(2);
    expect(sample(exposition, 'http_requests_total', { ...route, status: '404' })).toBe(1);
    expect(sample(exposition, 'http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(exposition, 'http_requests_total', { method: 'POST', status: '400' })).toBe(1);
    expect(sample(exposition, 'http_requests_total', { method: 'GET', status: '400' })).toBe(1);
    expect(sample(exposition, 'http_request_duration_seconds_count', { ...route, status: '200' })).toBe(2);
    expect(
      sample(exposition, 'http_request_duration_seconds_bucket', { ...route, status: '200', le: '+Inf' }),
    ).toBe(2);
    expect(exposition).toContain('# TYPE http_request_duration_seconds histogram');
    expect(exposition).toContain('# TYPE process_cpu_seconds_total counter');
    expect(exposition).toContain('nodejs_eventloop_lag_seconds');
    expect(exposition).not.toContain('/things/1"');
  });
});
