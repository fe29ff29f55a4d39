import { type DynamicModule, Module } from '@nestjs/common';
import {
  ACTIVE_USERS,
  CachedActiveUsers,
  LoginBearerGuard,
  type LoginTokenSettings,
  LoginTokenService,
} from '@broker/auth';
import { ClientAddresses } from '@broker/platform';
import { LOGIN_THROTTLE_SETTINGS, LoginThrottle, type LoginThrottleSettings } from './login-throttle.js';
import { LoginController } from './login.controller.js';
import { UserAccounts } from './user-accounts.js';

/** Area B authentication: login, the token service (also for the bearer guard) and the JWKS. */
@Module({})
export class LoginModule {
  static forRoot(settings: {
    token: LoginTokenSettings;
    throttle: LoginThrottleSettings;
    /** A token of a user deleted or disabled is refused within this many seconds (CALC_USER_STATUS_SECONDS). */
    userStatusSeconds: number;
    /** TRUSTED_PROXIES: whose X-Forwarded-For names the client address the failures are counted for. */
    trustedProxies: string[];
  }): DynamicModule {
    return {
      module: LoginModule,
      global: true,
      controllers: [LoginController],
      providers: [
        { provide: LoginTokenService, useValue: new LoginTokenService(settings.token) },
        { provide: LOGIN_THROTTLE_SETTINGS, useValue: settings.throttle },
        UserAccounts,
        {
          provide: ACTIVE_USERS,
          useFactory: (accounts: UserAccounts) =>
            new CachedActiveUsers((userId) => accounts.isActive(userId), settings.userStatusSeconds * 1000),
          inject: [UserAccounts],
        },
        LoginThrottle,
        { provide: ClientAddresses, useValue: new ClientAddresses(settings.trustedProxies) },
        LoginBearerGuard,
      ],
      exports: [LoginTokenService, LoginBearerGuard, ACTIVE_USERS],
    };
  }
}
