import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { KundendetailDefinitionView, KundendetailView } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import type { EmployeeScope } from '../employee-scope.js';
import { customerPath, assertVisibleCustomer } from '../visible-customer.js';
import {
  type DetailDefinitionRecord,
  DetailRepository,
  type DetailValueRecord,
} from './detail.repository.js';
import { normaliseDetailValue } from './detail-values.js';

/**
 * Customer details (Kundendetail) and the definitions available to the broker (KundendetailDefinition). A
 * customer's details follow the definitions of the customer's own broker, whoever looks at them.
 */
@Injectable()
export class DetailService {
  constructor(
    private readonly db: DataSource,
    private readonly details: DetailRepository,
  ) {}

  async definitions(scope: EmployeeScope): Promise<KundendetailDefinitionView[]> {
    return (await this.details.definitions(this.db.manager, scope.tenantId, scope.brokerId)).map(
      definitionView,
    );
  }

  /** getVermittlerKundenDetail: wrapped in an array, as the spec's example shows it. */
  async definition(scope: EmployeeScope, key: string): Promise<KundendetailDefinitionView[]> {
    const found = await this.details.definitions(this.db.manager, scope.tenantId, scope.brokerId, key);
    if (found.length === 0) throw DomainError.notFound(`Customer detail ${key} does not exist`);
    return found.map(definitionView);
  }

  async values(scope: EmployeeScope, customerId: string): Promise<KundendetailView[]> {
    const customer = await assertVisibleCustomer(this.db.manager, scope, customerId);
    const values = await this.details.values(this.db.manager, scope.tenantId, customer.brokerId, customerId);
    return values.map(valueView);
  }

  async value(scope: EmployeeScope, customerId: string, key: string): Promise<KundendetailView> {
    const customer = await assertVisibleCustomer(this.db.manager, scope, customerId);
    const [detail] = await this.details.values(
      this.db.manager,
      scope.tenantId,
      customer.brokerId,
      customerId,
      key,
    );
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
      const customer = await assertVisibleCustomer(tx, scope, customerId, true);
      const [definition] = await this.details.definitions(tx, scope.tenantId, customer.brokerId, key);
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
