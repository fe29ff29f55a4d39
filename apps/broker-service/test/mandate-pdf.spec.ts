import { PDFDocument } from 'pdf-lib';
import { renderMandatePdf } from '../src/signing/mandate-pdf.js';
import { mandateText } from '../src/signing/mandate-text.js';
import { signedMandate } from '../src/signing/signed-mandate.js';
import { pdfText } from './signing-support.js';

const broker = { name: 'Muster Makler GmbH', address: 'Am Markt 5, 20095 Hamburg' };

function mandate(customerName: string, body?: string, typedName = customerName) {
  const customer = { name: customerName, address: '' };
  const template = body ? { title: 'Vollmacht', body } : null;
  return signedMandate({
    text: mandateText(template, customer, broker),
    customer,
    broker,
    signature: { image: null, typedName },
    signedAt: new Date('2026-07-01T08:30:00Z'),
  });
}

describe('the mandate PDF', () => {
  it('writes German text as it is and the time in Europe/Berlin', async () => {
    const text = await pdfText(await renderMandatePdf(mandate('Jürgen Weiß')));
    expect(text).toContain('Ich, Jürgen Weiß, beauftrage und bevollmächtige');
    expect(text).toContain(
      'Bevollmächtigter Versicherungsmakler\nMuster Makler GmbH\nAm Markt 5, 20095 Hamburg',
    );
    expect(text).toContain('am 01.07.2026, 10:30:00 MESZ, Europe/Berlin');
  });

  it('writes letters beyond the standard font without accents or as ?, instead of failing', async () => {
    const text = await pdfText(await renderMandatePdf(mandate('Şükrü Łukasz Иван 李 😀')));
    expect(text).toContain('Sükrü Lukasz ???? ? ?');
  });

  it('wraps long words and continues on further pages', async () => {
    const paragraph = `Absatz mit ${'Überlänge'.repeat(30)} und Text. `.repeat(3);
    const body = Array.from({ length: 40 }, (_, index) => `${index + 1}. ${paragraph}`).join('\n\n');
    const pdf = await renderMandatePdf(mandate('Lang Text', body));
    expect((await PDFDocument.load(pdf)).getPageCount()).toBeGreaterThan(3);
    const text = await pdfText(pdf);
    expect(text).toContain('40. Absatz mit');
    expect(text).toContain('Elektronisch unterschrieben (durch Eingabe des Namens)');
  });

  it('fills the placeholders of a template and keeps its line breaks', () => {
    const text = mandateText(
      { title: ' Vollmacht ', body: 'Für {{kunde}}:\n  an {{ makler }}\n\n\n$& {{unbekannt}}' },
      { name: 'A$&B', address: '' },
      { name: 'M', address: '' },
    );
    expect(text).toEqual({ title: 'Vollmacht', paragraphs: [['Für A$&B:', 'an M'], ['$& {{unbekannt}}']] });
  });
});
