import { type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { DomainError } from '@broker/errors';

/** A path parameter that must match a pattern; anything else is a 400 naming the parameter. */
class PathIdPipe implements PipeTransform<string, string> {
  constructor(
    private readonly pattern: RegExp,
    private readonly what: string,
  ) {}

  transform(value: string, metadata: ArgumentMetadata): string {
    if (!this.pattern.test(value))
      throw DomainError.validation([`${metadata.data ?? 'id'} "${value}" is not ${this.what}`]);
    return value;
  }
}

const ROW_ID = /^[1-9][0-9]{0,17}$/;
const ADDRESS_ID = /^(0|[1-9][0-9]{0,8})$/;
const DETAIL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The id of an inventory row: a positive whole number. */
export const ParseIdPipe = new PathIdPipe(ROW_ID, 'an id');
/** An address id: 0 (the main residence) or a positive whole number. */
export const ParseAddressIdPipe = new PathIdPipe(ADDRESS_ID, 'an address id');
/** A customer detail id: the definition's key. */
export const ParseDetailIdPipe = new PathIdPipe(DETAIL_ID, 'a detail id');

/** What the pipes take, by the path parameters they read: stated in the document. */
export const PATH_ID_PATTERNS: Record<string, RegExp> = {
  customerId: ROW_ID,
  contactId: ROW_ID,
  entryId: ROW_ID,
  addressId: ADDRESS_ID,
  detailId: DETAIL_ID,
};
