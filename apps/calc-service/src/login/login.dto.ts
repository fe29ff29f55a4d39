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
