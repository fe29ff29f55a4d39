import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

/** POST /api/login */
export class LoginRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  username!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password!: string;
}

export class LoginResponse {
  @ApiProperty({ description: 'A JSON Web Token (RS256); its expiry is also in the Expires header' })
  token!: string;
}
