import { type DynamicModule, Module } from '@nestjs/common';
import { LoginBearerGuard, type LoginTokenSettings, LoginTokenService } from '@broker/auth';
import { LOGIN_THROTTLE_SETTINGS, LoginThrottle, type LoginThrottleSettings } from './login-throttle.js';
import { LoginController } from './login.controller.js';
import { UserAccounts } from './user-accounts.js';

/** Area B authentication: login, the token service (also for the bearer guard) and the JWKS. */
@Module({})
export class LoginModule {
  static forRoot(settings: { token: LoginTokenSettings; throttle: LoginThrottleSettings }): DynamicModule {
    return {
      module: LoginModule,
      global: true,
      controllers: [LoginController],
      providers: [
        { provide: LoginTokenService, useValue: new LoginTokenService(settings.token) },
        { provide: LOGIN_THROTTLE_SETTINGS, useValue: settings.throttle },
        UserAccounts,
        LoginThrottle,
        LoginBearerGuard,
      ],
      exports: [LoginTokenService, LoginBearerGuard],
    };
  }
}
