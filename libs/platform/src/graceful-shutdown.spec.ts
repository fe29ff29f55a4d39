import { Controller, Get } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@broker/testing';
import { createHttpApp } from './http-app.js';
import { platformTestModule } from '../test/platform-test-module.js';

let releaseSlowRequest: () => void = () => undefined;

@Controller('slow')
class SlowController {
  @Get()
  async slow(): Promise<{ finished: true }> {
    await new Promise<void>((resolve) => (releaseSlowRequest = resolve));
    return { finished: true };
  }
}

describe('closing an app (what SIGTERM triggers)', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let baseUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createHttpApp(
      platformTestModule({ service: 'shutdown-test', databaseUrl: database.url }, [SlowController]),
    );
    await app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${((app.getHttpServer() as Server).address() as AddressInfo).port}`;
  });
  afterAll(() => database?.drop());

  it('finishes the in-flight request, refuses new connections, then releases the database', async () => {
    const dataSource = app.get(DataSource);
    const inFlight = fetch(`${baseUrl}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = app.close();
    await new Promise((resolve) => setTimeout(resolve, 200));

    await expect(fetch(`${baseUrl}/health/live`)).rejects.toThrow();
    releaseSlowRequest();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    const started = Date.now();
    await closing;
    expect(Date.now() - started).toBeLessThan(1_000); // not held by the finished keep-alive connection
    expect(dataSource.isInitialized).toBe(false);
  });
});
