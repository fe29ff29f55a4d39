import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DomainError, ErrorCode } from '@broker/errors';

class ProbeAddress {
  @IsString()
  @MaxLength(5)
  postalCode!: string;
}

export class ProbeBody {
  @IsInt()
  birthdate!: number;

  @IsString()
  name!: string;

  @ValidateNested()
  @Type(() => ProbeAddress)
  address!: ProbeAddress;
}

/**
 * Routes that fail on purpose, mounted next to an app's real modules to prove its error mapping:
 * a domain error, a validation error, a path parameter, and a server fault whose message must never reach the
 * client.
 */
@Controller('__probe')
export class ErrorProbeController {
  static readonly SECRET_FAULT = 'connection string postgres://admin:hunter2@db failed';

  @Get('conflict')
  conflict(): never {
    throw new DomainError(ErrorCode.Conflict, 'The user name is already taken');
  }

  @Post('validate')
  validate(@Body() body: ProbeBody): ProbeBody {
    return body;
  }

  @Get('echo/:value')
  echo(@Param('value') value: string): { value: string } {
    return { value };
  }

  @Get('fault')
  fault(): never {
    throw new Error(ErrorProbeController.SECRET_FAULT);
  }
}
