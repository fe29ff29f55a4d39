import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { SvcPrincipal } from '@broker/auth';
import {
  type AuditActor,
  BROKER_PROFILE_COLUMNS,
  BrokerAdministration,
  type BrokerProfile,
  recordAuditEvent,
} from '@broker/administration';
import type {
  UntervermittlerAnlageInput,
  UntervermittlerdatensatzInput,
  UntervermittlerView,
} from '@broker/contracts';
import { DomainError, ErrorCode } from '@broker/errors';
import { isAtOrBelow, lockBrokerHierarchy } from '@broker/inventory';
import { brokerNotFound, visibleBrokerId } from '../../visible-broker.js';
import { type SubBrokerColumn, subBrokerChanges } from './sub-broker-changes.js';
import { SubBrokerRepository } from './sub-broker.repository.js';

/** The broker profile of the administration from the Untervermittlerdatensatz's column changes. */
const PROFILE_FIELD_OF_COLUMN = Object.fromEntries(
  Object.entries(BROKER_PROFILE_COLUMNS).map(([field, column]) => [column, field]),
) as Record<string, keyof BrokerProfile>;

/** A PATCH's changes as the administration's audit names them (its broker fields, the superior by number). */
function auditedChanges(
  changes: Map<SubBrokerColumn | 'parent_id', string | null>,
  parentNumber: string | undefined,
): Record<string, string | null> {
  const audited: Record<string, string | null> = {};
  for (const [column, value] of changes)
    if (column === 'name') audited.name = value;
    else if (column !== 'parent_id') audited[PROFILE_FIELD_OF_COLUMN[column]] = value;
  if (parentNumber !== undefined) audited.parent = parentNumber;
  return audited;
}

/** How an API client writes through the administration's use cases: audited as itself. */
const asApiClient = (caller: SvcPrincipal): AuditActor => ({
  kind: 'api-client',
  subject: caller.apiId,
  client: null,
});

/**
 * Sub-brokers (the broker service's "sub-broker creation" and "broker information" groups, and updateUntervermittler):
 * what the caller's broker and the brokers below it may read and change. Creating goes through the administration's
 * use case, in this transaction, audited as the API client; a change is audited as the API client too.
 */
@Injectable()
export class SubBrokerService {
  constructor(
    private readonly db: DataSource,
    private readonly subBrokers: SubBrokerRepository,
    private readonly brokers: BrokerAdministration,
  ) {}

  /** createUntervermittler: a new broker below the caller's, or below one of its sub-brokers (Uebervermittler). */
  async create(caller: SvcPrincipal, input: UntervermittlerAnlageInput): Promise<UntervermittlerView> {
    const name = input.Name;
    if (name === undefined) throw DomainError.validation(['Name is required']);
    refuseOtherNumber(input, input.Vermittlernummer, 'the Vermittlernummer');
    const profile: BrokerProfile = {};
    for (const [column, value] of subBrokerChanges(input))
      if (column !== 'name') profile[PROFILE_FIELD_OF_COLUMN[column]] = value;
    return this.db.transaction(async (tx) => {
      await lockBrokerHierarchy(tx, caller.tenantId, 'shared');
      const parent = input.Uebervermittler ?? caller.brokerNumber;
      if (!(await visibleBrokerId(tx, caller, parent)))
        throw DomainError.validation([`Uebervermittler ${parent} is neither you nor a broker below you`]);
      const context = { actor: asApiClient(caller), operation: 'createUntervermittler', tx };
      await this.brokers
        .create(context, caller.tenantCode, {
          number: input.Vermittlernummer,
          name,
          parent,
          blocked: false,
          profile,
        })
        .catch((error: unknown) => {
          // Area C answers a taken key as the spec's example answers a taken user name: 400.
          if (error instanceof DomainError && error.code === ErrorCode.Conflict)
            throw DomainError.validation([`Vermittlernummer ${input.Vermittlernummer} is already taken`]);
          throw error;
        });
      const brokerId = await visibleBrokerId(tx, caller, input.Vermittlernummer);
      return this.subBrokers.read(tx, caller.tenantId, brokerId!);
    });
  }

  /** getVermittler: the caller's broker or one below it, and when it last changed. */
  async get(
    caller: SvcPrincipal,
    brokerNumber: string,
  ): Promise<{ view: UntervermittlerView; lastModified: Date }> {
    const found = await this.subBrokers.find(this.db.manager, caller, brokerNumber);
    if (!found) throw brokerNotFound(brokerNumber);
    return found;
  }

  /** listUntervermittler: a page of the brokers below the caller's, with their count and the list's date. */
  list(caller: SvcPrincipal, page: { from: number; size: number }) {
    return this.subBrokers.listBelow(this.db.manager, caller, page);
  }

  async update(
    caller: SvcPrincipal,
    brokerNumber: string,
    input: UntervermittlerdatensatzInput,
  ): Promise<UntervermittlerView> {
    refuseOtherNumber(input, brokerNumber, 'the broker of the path');
    const changes: Map<SubBrokerColumn | 'parent_id', string | null> = subBrokerChanges(input);
    return this.db.transaction(async (tx) => {
      const parentNumber = input.Uebervermittler;
      await lockBrokerHierarchy(tx, caller.tenantId, parentNumber === undefined ? 'shared' : 'exclusive');
      const brokerId = await visibleBrokerId(tx, caller, brokerNumber, { belowOnly: true, lock: true });
      if (!brokerId) throw brokerNotFound(brokerNumber);
      if (parentNumber !== undefined)
        changes.set('parent_id', await this.newParent(tx, caller, brokerId, parentNumber));
      await this.subBrokers.update(tx, caller.tenantId, brokerId, changes);
      await recordAuditEvent(tx, asApiClient(caller), {
        tenantId: caller.tenantId,
        action: 'updateUntervermittler',
        target: `brokers/${brokerNumber}`,
        changes: auditedChanges(changes, parentNumber),
      });
      return this.subBrokers.read(tx, caller.tenantId, brokerId);
    });
  }

  /** The caller or a broker below it, but neither the sub-broker itself nor one of its own sub-brokers. */
  private async newParent(
    tx: EntityManager,
    caller: SvcPrincipal,
    brokerId: string,
    parentNumber: string,
  ): Promise<string> {
    const parentId = await visibleBrokerId(tx, caller, parentNumber);
    if (!parentId)
      throw DomainError.validation([`Uebervermittler ${parentNumber} is neither you nor a broker below you`]);
    if (await isAtOrBelow(tx, caller.tenantId, brokerId, parentId))
      throw DomainError.validation([
        `Uebervermittler ${parentNumber} is this sub-broker or one below it: the move would make a cycle`,
      ]);
    return parentId;
  }
}

/** Vermittler is read-only: a body read from getVermittler may carry it, but only with the broker's own number. */
function refuseOtherNumber(input: UntervermittlerdatensatzInput, number: string, what: string): void {
  if (input.Vermittler != null && input.Vermittler !== number)
    throw DomainError.validation([`Vermittler ${input.Vermittler} is not ${number}, ${what}`]);
}
