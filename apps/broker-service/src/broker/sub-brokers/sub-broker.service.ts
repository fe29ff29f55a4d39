import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { SvcPrincipal } from '@broker/auth';
import type { UntervermittlerdatensatzInput, UntervermittlerView } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import { brokerNotFound, visibleBrokerId } from '../../visible-broker.js';
import { type SubBrokerColumn, subBrokerChanges } from './sub-broker-changes.js';
import { SubBrokerRepository } from './sub-broker.repository.js';

/** updateUntervermittler: field changes and a move in the hierarchy, in one transaction. */
@Injectable()
export class SubBrokerService {
  constructor(
    private readonly db: DataSource,
    private readonly subBrokers: SubBrokerRepository,
  ) {}

  async update(
    caller: SvcPrincipal,
    brokerNumber: string,
    input: UntervermittlerdatensatzInput,
  ): Promise<UntervermittlerView> {
    const changes: Map<SubBrokerColumn | 'parent_id', string | null> = subBrokerChanges(input);
    return this.db.transaction(async (tx) => {
      const parentNumber = input.Uebervermittler;
      await this.subBrokers.lockHierarchy(
        tx,
        caller.tenantId,
        parentNumber === undefined ? 'shared' : 'exclusive',
      );
      const brokerId = await visibleBrokerId(tx, caller, brokerNumber, { belowOnly: true, lock: true });
      if (!brokerId) throw brokerNotFound(brokerNumber);
      if (parentNumber !== undefined)
        changes.set('parent_id', await this.newParent(tx, caller, brokerId, parentNumber));
      await this.subBrokers.update(tx, caller.tenantId, brokerId, changes);
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
    if (await this.subBrokers.isAtOrBelow(tx, caller.tenantId, brokerId, parentId))
      throw DomainError.validation([
        `Uebervermittler ${parentNumber} is this sub-broker or one below it: the move would make a cycle`,
      ]);
    return parentId;
  }
}
