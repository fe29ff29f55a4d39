import { type BeforeApplicationShutdown, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/**
 * While the HTTP server drains on shutdown, closes each keep-alive connection as soon as its in-flight
 * response is done. Without this, a client's idle keep-alive connection holds the shutdown for the
 * whole keep-alive timeout.
 */
@Injectable()
export class ConnectionDrainer implements BeforeApplicationShutdown, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  beforeApplicationShutdown(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    this.timer = setInterval(() => server.closeIdleConnections(), 50);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
