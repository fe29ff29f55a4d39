import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface AddressRecord {
  addressNo: number;
  type: string;
  addition: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  country: string;
}

const SELECT = `SELECT address_no AS "addressNo", address_type AS type, addition, street, postal_code AS "postalCode",
                       city, country FROM broker.address`;

@Injectable()
export class AddressRepository {
  async list(db: EntityManager, customerId: string): Promise<AddressRecord[]> {
    return db.query(`${SELECT} WHERE customer_id = $1 ORDER BY address_no`, [customerId]);
  }

  async find(db: EntityManager, customerId: string, addressNo: number): Promise<AddressRecord | undefined> {
    const [row] = await db.query<AddressRecord[]>(`${SELECT} WHERE customer_id = $1 AND address_no = $2`, [
      customerId,
      addressNo,
    ]);
    return row;
  }

  /** Writes the address under its number (insert or replace). */
  async save(db: EntityManager, tenantId: string, customerId: string, address: AddressRecord): Promise<void> {
    await db.query(
      `INSERT INTO broker.address (tenant_id, customer_id, address_no, address_type, addition, street, postal_code,
                                   city, country)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (customer_id, address_no) DO UPDATE
          SET address_type = EXCLUDED.address_type, addition = EXCLUDED.addition, street = EXCLUDED.street,
              postal_code = EXCLUDED.postal_code, city = EXCLUDED.city, country = EXCLUDED.country`,
      [
        tenantId,
        customerId,
        address.addressNo,
        address.type,
        address.addition,
        address.street,
        address.postalCode,
        address.city,
        address.country,
      ],
    );
  }

  /** The next free number for an additional address (0 is the main residence). */
  async nextNumber(db: EntityManager, customerId: string): Promise<number> {
    const [row] = await db.query<{ next: number }[]>(
      'SELECT greatest(coalesce(max(address_no), 0) + 1, 1)::int AS next FROM broker.address WHERE customer_id = $1',
      [customerId],
    );
    return row.next;
  }

  async delete(db: EntityManager, customerId: string, addressNo: number): Promise<boolean> {
    const deleted = await db.query<unknown[]>(
      // Wrapped in a SELECT: the driver answers a bare DELETE ... RETURNING with [rows, count].
      `WITH deleted AS (DELETE FROM broker.address WHERE customer_id = $1 AND address_no = $2 RETURNING 1)
       SELECT 1 FROM deleted`,
      [customerId, addressNo],
    );
    return deleted.length > 0;
  }
}
