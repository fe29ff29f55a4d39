import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { IsInt, IsString, ValidateNested, validateSync } from 'class-validator';
import { Type } from 'class-transformer';
import {
  apiErrorBody,
  classifyClientFault,
  type FaultyRequest,
  meldungenBody,
  serverFaultPage,
} from './area-exception-filter.js';
import { DomainError } from './domain-error.js';
import { ErrorCode, httpStatusOf } from './error-code.js';
import { clientLeft } from './response-marks.js';
import { describeValidationErrors } from './validation.js';

const request: FaultyRequest = { method: 'GET', path: '/service/demo/x' };

describe('error mapping', () => {
  it('gives every error code a 4xx status, but the refusals for want of capacity or a dependency their 503', () => {
    const unavailable: ErrorCode[] = [ErrorCode.Overloaded, ErrorCode.DependencyUnavailable];
    const codes = Object.values(ErrorCode).filter(
      (value): value is ErrorCode => typeof value === 'number' && !unavailable.includes(value),
    );
    for (const code of codes) expect(httpStatusOf(code)).toBeGreaterThanOrEqual(400);
    for (const code of codes) expect(httpStatusOf(code)).toBeLessThan(500);
    for (const code of unavailable) expect(httpStatusOf(code)).toBe(503);
  });

  it('renders a domain error in the area A/B shape', () => {
    const fault = classifyClientFault(new DomainError(ErrorCode.ValidationFailed, 'file is empty'), request)!;
    expect(apiErrorBody(fault)).toEqual({
      name: 'ValidationFailed',
      message: 'file is empty',
      code: 1000,
      status: 400,
    });
  });

  it('renders every problem as its own Meldung in the area C shape', () => {
    const fault = classifyClientFault(DomainError.validation(['Nachname fehlt', 'PLZ ungültig']), request)!;
    expect(meldungenBody(fault)).toEqual({ Meldungen: ['Nachname fehlt', 'PLZ ungültig'] });
    const single = classifyClientFault(
      new DomainError(ErrorCode.Conflict, 'Benutzername vergeben'),
      request,
    )!;
    expect(meldungenBody(single)).toEqual({ Meldungen: ['Benutzername vergeben'] });
  });

  it('keeps the headers a domain error carries', () => {
    const error = new DomainError(ErrorCode.RateLimited, 'slow down', [], { 'Retry-After': '30' });
    expect(classifyClientFault(error, request)).toMatchObject({
      status: 429,
      headers: { 'Retry-After': '30' },
    });
  });

  it('names unknown routes without echoing framework text', () => {
    const fault = classifyClientFault(new NotFoundException('Cannot GET /service/demo/x'), request)!;
    expect(fault).toMatchObject({
      status: 404,
      code: ErrorCode.RouteNotFound,
      message: 'No resource at GET /service/demo/x',
    });
  });

  it('maps framework client errors by status', () => {
    expect(classifyClientFault(new PayloadTooLargeException(), request)).toMatchObject({
      status: 413,
      code: ErrorCode.PayloadTooLarge,
    });
    expect(classifyClientFault(new BadRequestException('bad'), request)).toMatchObject({
      status: 400,
      message: 'bad',
    });
  });

  it('recognises body-parser errors and replaces their message', () => {
    const parseError = Object.assign(new SyntaxError('Unexpected token } in JSON at position 9'), {
      status: 400,
      expose: true,
      type: 'entity.parse.failed',
    });
    const wrapped = new BadRequestException(parseError.message, { cause: parseError });
    for (const error of [parseError, wrapped]) {
      expect(classifyClientFault(error, request)).toMatchObject({
        status: 400,
        code: ErrorCode.MalformedRequest,
        message: 'The request body is not valid JSON',
      });
    }
  });

  it.each(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout'])(
    'refuses a request whose wait for a database connection ran out (%s) with 503 and Retry-After',
    (message) => {
      const fault = classifyClientFault(new Error(message), request)!;
      expect(fault).toMatchObject({
        status: 503,
        code: ErrorCode.Overloaded,
        headers: { 'Retry-After': '1' },
      });
      expect(apiErrorBody(fault)).toEqual({
        name: 'Overloaded',
        message: 'The service is overloaded; try again in 1 s',
        code: 1500,
        status: 503,
      });
      expect(meldungenBody(fault)).toEqual({ Meldungen: ['The service is overloaded; try again in 1 s'] });
    },
  );

  it('treats everything else as a server fault', () => {
    expect(classifyClientFault(new Error('db down'), request)).toBeUndefined();
    expect(classifyClientFault(Object.assign(new Error('x'), { status: 400 }), request)).toBeUndefined();
    expect(classifyClientFault(new Error('Connection terminated unexpectedly'), request)).toBeUndefined();
    expect(classifyClientFault(null, request)).toBeUndefined();
  });

  it('answers a server fault with an HTML page that has the request id and nothing else', () => {
    const page = serverFaultPage(500, 'req-<1>');
    expect(page).toContain('<!DOCTYPE html>');
    expect(page).toContain('req-&#60;1&#62;');
    expect(page).not.toMatch(/at .*\(.*:\d+:\d+\)/);
  });
});

class Address {
  @IsString()
  postalCode!: string;
}

class Person {
  @IsInt()
  birthdate!: number;

  @ValidateNested()
  @Type(() => Address)
  address!: Address;
}

describe('describeValidationErrors', () => {
  it('names every failing field with its full path', () => {
    const person = plainToInstance(Person, { birthdate: 'x', address: { postalCode: 5 } });
    expect(describeValidationErrors(validateSync(person))).toEqual([
      'birthdate must be an integer number',
      'address.postalCode must be a string',
    ]);
  });
});

describe('clientLeft', () => {
  const socket = (destroyed: boolean, writable: boolean) => ({ socket: { destroyed, writable } });

  it('asks the request (under Fastify its raw one) whether its connection is gone or its side ended', () => {
    expect(clientLeft(socket(true, false))).toBe(true);
    expect(clientLeft(socket(false, false))).toBe(true);
    expect(clientLeft({ raw: socket(true, false) })).toBe(true);
    expect(clientLeft(socket(false, true))).toBe(false);
    expect(clientLeft({ raw: socket(false, true) })).toBe(false);
  });

  it('does not take a request without a socket for one whose client left', () => {
    expect(clientLeft({ socket: null })).toBe(false);
  });
});
