import {
  AGENCY_NUMBER_MAX_LENGTH,
  BROKER_NUMBER,
  EMAIL_ADDRESS,
  EMPLOYEE_NUMBER,
  NAME_MAX_LENGTH,
  NAME_TEXT,
  PHONE_NUMBER,
  POSTAL_CODE,
  VU_NUMBER,
  WEBSITE,
} from '@broker/contracts';
import { UNSTORABLE_CHARACTER } from '@broker/errors';

/** A cell as a master-data record holds it: text, a flag, or null for an empty optional cell. */
export type CellValue = string | boolean | null;

export type CellReading = { value: CellValue } | { problem: string };

/** A column of a kind of master-data file: its name in the header, whether it must be there, how a cell is read. */
export interface MasterDataColumn {
  name: string;
  required: boolean;
  /** The value of a new row's column when the file does not have the column. */
  default: CellValue;
  read(cell: string): CellReading;
}

const TEXT_MAX_LENGTH = 2000;
const TRUE = ['true', '1', 'yes', 'ja', 'x'];
const FALSE = ['', 'false', '0', 'no', 'nein'];

/** A cell that cannot be stored as text at all: PostgreSQL refuses NUL. */
function unstorable(name: string, cell: string): CellReading | undefined {
  return UNSTORABLE_CHARACTER.test(cell)
    ? { problem: `${name} holds a character text cannot hold (NUL)` }
    : undefined;
}

/** A value that must not be empty, at most `maxLength` characters, matching `pattern` when given. */
export function requiredText(
  name: string,
  maxLength: number,
  pattern?: { regex: RegExp; message: string },
): MasterDataColumn {
  return {
    name,
    required: true,
    default: null,
    read: (cell) =>
      unstorable(name, cell) ??
      (cell === ''
        ? { problem: `${name} is empty` }
        : cell.length > maxLength
          ? { problem: `${name} is longer than ${maxLength} characters` }
          : pattern && !pattern.regex.test(cell)
            ? { problem: `${name} ${pattern.message}` }
            : { value: cell }),
  };
}

/** A value that may be empty (stored as null), else like requiredText; the column itself may be left out. */
export function optionalText(
  name: string,
  maxLength: number,
  pattern?: { regex: RegExp; message: string },
): MasterDataColumn {
  const filled = requiredText(name, maxLength, pattern);
  return {
    name,
    required: false,
    default: null,
    read: (cell) => (cell === '' ? { value: null } : filled.read(cell)),
  };
}

/** A yes/no cell: true, 1, yes, ja or x; false, 0, no, nein or empty (any case). */
export function flag(name: string): MasterDataColumn {
  return {
    name,
    required: false,
    default: false,
    read: (cell) => {
      const word = cell.toLowerCase();
      if (TRUE.includes(word)) return { value: true };
      if (FALSE.includes(word)) return { value: false };
      return {
        problem: `${name} must be true or false (also 1/0, yes/no, ja/nein, x or empty), not ${cell}`,
      };
    },
  };
}

const brokerNumberRule = {
  regex: BROKER_NUMBER,
  message: 'is not a broker number (1 to 32 letters, digits, ., _ or -)',
};
const contact = (regex: RegExp, what: string) => ({ regex, message: `is not ${what}` });

export const BROKER_COLUMNS: MasterDataColumn[] = [
  requiredText('number', 32, brokerNumberRule),
  requiredText('name', NAME_MAX_LENGTH, NAME_TEXT),
  optionalText('parent', 32, brokerNumberRule),
  flag('blocked'),
  optionalText('name_suffix', NAME_MAX_LENGTH),
  optionalText('street', NAME_MAX_LENGTH),
  optionalText('postal_code', 5, contact(POSTAL_CODE, 'a postal code of five digits')),
  optionalText('city', NAME_MAX_LENGTH),
  optionalText('email', 254, contact(EMAIL_ADDRESS, 'an e-mail address')),
  optionalText('phone', 30, contact(PHONE_NUMBER, 'a telephone number')),
  optionalText('mobile', 30, contact(PHONE_NUMBER, 'a telephone number')),
  optionalText('fax', 30, contact(PHONE_NUMBER, 'a telephone number')),
  optionalText('website', 254, contact(WEBSITE, 'a web address')),
  optionalText('imprint', TEXT_MAX_LENGTH),
];

export const EMPLOYEE_COLUMNS: MasterDataColumn[] = [
  requiredText('broker', 32, brokerNumberRule),
  requiredText('number', 32, {
    regex: EMPLOYEE_NUMBER,
    message: 'is not an employee number (1 to 32 letters, digits, _ or -)',
  }),
  requiredText('name', NAME_MAX_LENGTH, NAME_TEXT),
  optionalText('email', 254, contact(EMAIL_ADDRESS, 'an e-mail address')),
  flag('disabled'),
];

const vuNumberRule = { regex: VU_NUMBER, message: 'is not a VU number (1 to 10 letters or digits)' };

export const COMPANY_COLUMNS: MasterDataColumn[] = [
  requiredText('vu_number', 10, vuNumberRule),
  requiredText('name', NAME_MAX_LENGTH, NAME_TEXT),
];

export const AGREEMENT_COLUMNS: MasterDataColumn[] = [
  requiredText('broker', 32, brokerNumberRule),
  requiredText('vu_number', 10, vuNumberRule),
  optionalText('agency_number', AGENCY_NUMBER_MAX_LENGTH),
];
