import { DomainError } from '@broker/errors';
import { MASTER_DATA_MAX_BAD_LINES, MASTER_DATA_MAX_LINES, parseMasterDataCsv } from './master-data-csv.js';

const BROKERS = { required: ['number', 'name'], known: ['number', 'name', 'parent', 'city'] };

/** The DomainError a file is refused with, if it is. */
const refusalOf = (text: string) =>
  parseMasterDataCsv(text, BROKERS).then(
    () => undefined,
    (error: unknown) => error as DomainError,
  );

describe('parseMasterDataCsv', () => {
  it('reads a header in any order and case, commas or semicolons, a BOM and CR LF, skipping blank lines', async () => {
    for (const text of ['Name,NUMBER\nNord,N1\n\nSüd,N2\n', '\uFEFFname;number\r\nNord;N1\r\n\r\nSüd;N2\r\n'])
      expect(await parseMasterDataCsv(text, BROKERS)).toEqual({
        columns: ['name', 'number'],
        rows: [
          { line: 2, cells: { name: 'Nord', number: 'N1' } },
          { line: 4, cells: { name: 'Süd', number: 'N2' } },
        ],
        errors: [],
      });
  });

  it('counts a row by the line it starts on, also after quoted line breaks, and keeps quoted commas', async () => {
    const parsed = await parseMasterDataCsv('number,name\nN1,"Nord\nund Ost"\nN2," Süd, West "\n', BROKERS);
    expect(parsed.rows).toEqual([
      { line: 2, cells: { number: 'N1', name: 'Nord\nund Ost' } },
      { line: 4, cells: { number: 'N2', name: 'Süd, West' } },
    ]);
  });

  it('lists a row with another number of cells, and one that is no CSV record, by line', async () => {
    const parsed = await parseMasterDataCsv('number,name\nN1\nN2,Zwei,zu viel\nN3,Dr"ei\nN4,Vier\n', BROKERS);
    expect(parsed.rows).toEqual([{ line: 5, cells: { number: 'N4', name: 'Vier' } }]);
    expect(parsed.errors).toEqual([
      { line: 2, message: 'has 1 cells; the header names 2 columns' },
      { line: 3, message: 'has 3 cells; the header names 2 columns' },
      { line: 4, message: expect.stringContaining('is not a CSV record') },
    ]);
  });

  it('names the line where a quote that is never closed opened, and the lines it took along', async () => {
    const parsed = await parseMasterDataCsv('number,name\nN1,Eins\nN2,"Zwei\nN3,Drei\nN4,Vier\n', BROKERS);
    expect(parsed.rows).toEqual([{ line: 2, cells: { number: 'N1', name: 'Eins' } }]);
    expect(parsed.errors).toEqual([
      { line: 3, message: 'has a quote that is never closed: lines 3-5 could not be read' },
    ]);
  });

  it('lets other work run while it reads a large file', async () => {
    const rows = Array.from({ length: 100_000 }, (_, index) => `N${index},Name ${index}`);
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const parsed = await parseMasterDataCsv(`number,name\n${rows.join('\n')}`, BROKERS);
    clearInterval(counting);
    expect(parsed.rows).toHaveLength(100_000);
    expect(turns).toBeGreaterThan(3);
  });

  it('names an unclosed quote after very many rows (no argument list as long as the file)', async () => {
    const rows = Array.from({ length: 150_000 }, (_, index) => `N${index},Name`);
    const parsed = await parseMasterDataCsv(`number,name\n${rows.join('\n')}\nX,"Y\n`, BROKERS);
    expect(parsed.rows).toHaveLength(150_000);
    expect(parsed.errors).toEqual([{ line: 150_002, message: 'has a quote that is never closed' }]);
  });

  it(`stops reading after ${MASTER_DATA_MAX_BAD_LINES} bad lines, and says where`, async () => {
    const parsed = await parseMasterDataCsv(`number,name\n${'N1\n'.repeat(150_000)}N2,Zwei\n`, BROKERS);
    expect(parsed.rows).toEqual([]);
    expect(parsed.errors).toHaveLength(MASTER_DATA_MAX_BAD_LINES);
    expect(parsed.errors.at(-1)).toEqual({
      line: MASTER_DATA_MAX_BAD_LINES + 1,
      message: 'has 1 cells; the header names 2 columns; the file was not read beyond this line',
    });
  });

  it('reads a header of very many columns at once, and names a few of them', async () => {
    const columns = Array.from({ length: 30_000 }, (_, index) => `spalte_${index}_${'x'.repeat(60)}`);
    const refusal = await refusalOf(`number,name,${columns.join(',')},${columns.join(',')}\nN1,Eins`);
    expect(refusal?.message).toContain(
      `The header row names unknown column(s) spalte_0_${'x'.repeat(31)}…, spalte_1_`,
    );
    expect(refusal?.message).toContain('and 29990 more; known: number, name, parent, city');
    expect(refusal?.message).toContain('and 29990 more more than once');
    expect(refusal?.message.length).toBeLessThan(2000);
  });

  it.each([
    [
      `number,name\n${'N1,Eins\n'.repeat(MASTER_DATA_MAX_LINES)}`,
      `The file has ${MASTER_DATA_MAX_LINES + 1} lines`,
    ],
    ['', 'The file is empty'],
    ['number,name\n', 'The file has a header row but no rows'],
    ['number,city\nN1,Kiel', 'The header row lacks the column(s) name'],
    ['number,name,secret\nN1,X,Y', 'The header row names unknown column(s) secret'],
    ['number,name,Name\nN1,X,Y', 'The header row names name more than once'],
  ])('refuses a file as a whole (%#)', async (text, message) => {
    const refusal = await refusalOf(text);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal?.message).toContain(message);
  });
});
