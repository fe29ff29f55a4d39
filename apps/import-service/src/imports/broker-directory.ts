import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { visibleBrokersCte } from '@broker/inventory';

export interface BrokerRef {
  tenantId: string;
  brokerId: string;
  number: string;
  name: string;
  blocked: boolean;
}

export interface CompanyRef {
  id: string;
  vuNumber: string;
  name: string;
}

const BROKER_COLUMNS = `b.tenant_id AS "tenantId", b.id AS "brokerId", b.broker_number AS number, b.name, b.blocked`;

/** Read access to the inventory the import service needs: brokers, their hierarchy, companies. */
@Injectable()
export class BrokerDirectory {
  constructor(private readonly db: DataSource) {}

  async findBroker(tenantCode: string, brokerNumber: string): Promise<BrokerRef | undefined> {
    const [broker] = await this.db.query<BrokerRef[]>(
      `SELECT ${BROKER_COLUMNS} FROM broker.broker b JOIN broker.tenant t ON t.id = b.tenant_id
        WHERE t.code = $1 AND b.broker_number = $2`,
      [tenantCode, brokerNumber],
    );
    return broker;
  }

  /** The broker with this number when it is `caller` itself or below it in the hierarchy. */
  async findVisibleBroker(caller: BrokerRef, brokerNumber: string): Promise<BrokerRef | undefined> {
    const [broker] = await this.db.query<BrokerRef[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
       SELECT ${BROKER_COLUMNS} FROM broker.broker b JOIN visible_broker v ON v.id = b.id
        WHERE b.tenant_id = $1 AND b.broker_number = $3`,
      [caller.tenantId, caller.brokerId, brokerNumber],
    );
    return broker;
  }

  async findCompanies(tenantId: string, vuNumbers: string[]): Promise<CompanyRef[]> {
    return this.db.query<CompanyRef[]>(
      `SELECT id, vu_number AS "vuNumber", name FROM broker.company
        WHERE tenant_id = $1 AND vu_number = ANY($2::text[]) ORDER BY vu_number`,
      [tenantId, vuNumbers],
    );
  }
}
