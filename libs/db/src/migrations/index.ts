import { PlatformSchemas1763700000000 } from './1763700000000-platform-schemas.js';
import { InventoryModel1763700000001 } from './1763700000001-inventory-model.js';
import { CalcUsers1763700000002 } from './1763700000002-calc-users.js';
import { ImportProcesses1763700000003 } from './1763700000003-import-processes.js';
import { ImportStaging1763700000004 } from './1763700000004-import-staging.js';
import { ImportMerge1763700000005 } from './1763700000005-import-merge.js';
import { Notifications1763700000007 } from './1763700000007-notifications.js';
import { CustomerSearch1763700000008 } from './1763700000008-customer-search.js';
import { CalcLoginThrottle1763700000009 } from './1763700000009-calc-login-throttle.js';
import { CompanyAgreements1763700000010 } from './1763700000010-company-agreements.js';
import { MandateSigning1763700000011 } from './1763700000011-mandate-signing.js';
import { CustomerSearchPriorWord1763700000012 } from './1763700000012-customer-search-prior-word.js';
import { CustomerSearchByBroker1763700000013 } from './1763700000013-customer-search-by-broker.js';
import { CustomerSearchTenantLock1763700000014 } from './1763700000014-customer-search-tenant-lock.js';
import { UploadIdempotency1763700000015 } from './1763700000015-upload-idempotency.js';
import { CustomerPassword1763700000016 } from './1763700000016-customer-password.js';
import { ImportDryRun1763700000017 } from './1763700000017-import-dry-run.js';
import { ImportWebhooks1763700000018 } from './1763700000018-import-webhooks.js';
import { ImportStagingTyped1763700000019 } from './1763700000019-import-staging-typed.js';
import { Administration1763700000020 } from './1763700000020-administration.js';
import { ImportTraceParent1763700000021 } from './1763700000021-import-trace-parent.js';
import { ConsoleSessions1763700000022 } from './1763700000022-console-sessions.js';
import { ImportOperatorCancel1763700000023 } from './1763700000023-import-operator-cancel.js';

/** Every migration, oldest first. A new migration is added at the end of this list. */
export const allMigrations = [
  PlatformSchemas1763700000000,
  InventoryModel1763700000001,
  CalcUsers1763700000002,
  ImportProcesses1763700000003,
  ImportStaging1763700000004,
  ImportMerge1763700000005,
  Notifications1763700000007,
  CustomerSearch1763700000008,
  CalcLoginThrottle1763700000009,
  CompanyAgreements1763700000010,
  MandateSigning1763700000011,
  CustomerSearchPriorWord1763700000012,
  CustomerSearchByBroker1763700000013,
  CustomerSearchTenantLock1763700000014,
  UploadIdempotency1763700000015,
  CustomerPassword1763700000016,
  ImportDryRun1763700000017,
  ImportWebhooks1763700000018,
  ImportStagingTyped1763700000019,
  Administration1763700000020,
  ImportTraceParent1763700000021,
  ConsoleSessions1763700000022,
  ImportOperatorCancel1763700000023,
];
