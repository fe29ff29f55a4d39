import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { KundendetailDefinitionView, KundendetailView } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import type { EmployeeScope } from '../employee-scope.js';
import { customerPath, visibleCustomerId } from '../visible-customer.js';
import {
  type DetailDefinitionRecord,
  DetailRepository,
  type DetailValueRecord,
} from './detail.repository.js';
import { normaliseDetailValue } from './detail-values.js';

/** Customer details (Kundendetail) and the definitions available to the broker (KundendetailDefinition). */
@Injectable()
export class DetailService {
  constructor(
    private readonly db: DataSource,
    private readonly details: DetailRepository,
  ) {}

  async definitions(scope: EmployeeScope): Promise<KundendetailDefinitionView[]> {
    return (await this.details.definitions(this.db.manager, scope)).map(definitionView);
  }

  /** getVermittlerKundenDetail: wrapped in an array, as the spec's example shows it. */
  async definition(scope: EmployeeScope, key: string): Promise<KundendetailDefinitionView[]> {
    const found = await this.details.definitions(this.db.manager, scope, key);
    if (found.length === 0) throw DomainError.notFound(`Customer detail ${key} does not exist`);
    return found.map(definitionView);
  }

  async values(scope: EmployeeScope, customerId: string): Promise<KundendetailView[]> {
    await visibleCustomerId(this.db.manager, scope, customerId);
    return (await this.details.values(this.db.manager, scope, customerId)).map(valueView);
  }

  async value(scope: EmployeeScope, customerId: string, key: string): Promise<KundendetailView> {
    await visibleCustomerId(this.db.manager, scope, customerId);
    const [detail] = await this.details.values(this.db.manager, scope, customerId, key);
    if (!detail) throw DomainError.notFound(`Customer detail ${key} does not exist`);
    return valueView(detail);
  }

  /** setKundenDetail: creates or updates; answers the detail with its Uri. */
  async set(
    scope: EmployeeScope,
    customerId: string,
    key: string,
    value: unknown,
  ): Promise<KundendetailView> {
    return this.db.transaction(async (tx) => {
      await visibleCustomerId(tx, scope, customerId, true);
      const [definition] = await this.details.definitions(tx, scope, key);
      if (!definition) throw DomainError.notFound(`Customer detail ${key} does not exist`);
      const normalised = normaliseDetailValue(definition, value, scope.zone);
      await this.details.save(tx, scope.tenantId, customerId, definition.id, normalised);
      return {
        ...valueView({ ...definition, value: normalised }),
        Uri: customerPath(scope, customerId, 'details', encodeURIComponent(key)),
      };
    });
  }
}

function definitionView(definition: DetailDefinitionRecord): KundendetailDefinitionView {
  return { Id: definition.key, Name: definition.name, Type: definition.type, Definition: definition.options };
}

function valueView(detail: DetailValueRecord): KundendetailView {
  return {
    Id: detail.key,
    Name: detail.name,
    Value: (detail.value ?? null) as string | boolean | null,
    Type: detail.type,
  };
}
