import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { Party } from './mandate-text.js';
import { berlinDateTime } from '../customer-pages/berlin-time.js';
import type { SignedMandate } from './signed-mandate.js';

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const TEXT_WIDTH = A4.width - 2 * MARGIN;
const INK = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.35, 0.35, 0.35);
const SIGNATURE_BOX = { width: 240, height: 120 };

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
}

interface TextStyle {
  font: keyof Fonts;
  size: number;
  color?: typeof INK;
  /** Space below the block, in points. */
  after?: number;
}

/** Letters outside the standard fonts' character set (WinAnsi) that do not decompose into one of its letters. */
const TRANSLITERATIONS: Record<string, string> = { ł: 'l', Ł: 'L', ı: 'i', đ: 'd', Đ: 'D', ħ: 'h', Ħ: 'H' };

/**
 * Top-down layout over A4 pages: wraps text to the width, starts a new page when the next block does not fit.
 * The standard fonts cover German and the other West European languages; any other letter is written without
 * its accents (ş → s) or as '?', so that the PDF can always be written.
 */
class PdfFlow {
  private page: PDFPage;
  private y = A4.height - MARGIN;
  private readonly characters: Set<number>;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: Fonts,
  ) {
    this.page = pdf.addPage([A4.width, A4.height]);
    this.characters = new Set(fonts.regular.getCharacterSet());
  }

  text(text: string, style: TextStyle): void {
    const font = this.fonts[style.font];
    const lineHeight = style.size * 1.35;
    for (const line of this.wrap(this.printable(text), font, style.size)) {
      this.ensure(lineHeight);
      this.y -= style.size;
      this.page.drawText(line, { x: MARGIN, y: this.y, size: style.size, font, color: style.color ?? INK });
      this.y -= lineHeight - style.size;
    }
    this.y -= style.after ?? 0;
  }

  async image(png: Uint8Array): Promise<void> {
    const image = await this.pdf.embedPng(png);
    const { width, height } = image.scaleToFit(SIGNATURE_BOX.width, SIGNATURE_BOX.height);
    this.ensure(height);
    this.y -= height;
    this.page.drawImage(image, { x: MARGIN, y: this.y, width, height });
  }

  space(points: number): void {
    this.y -= points;
  }

  rule(width: number): void {
    this.ensure(8);
    this.y -= 4;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: MARGIN + width, y: this.y },
      thickness: 0.75,
      color: MUTED,
    });
    this.y -= 4;
  }

  /** Keeps the next `height` points together, on a new page when this one is full. */
  ensure(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.page = this.pdf.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  private printable(text: string): string {
    return [...text.normalize('NFC')]
      .map((character) => {
        if (this.characters.has(character.codePointAt(0)!)) return character;
        const base = character.normalize('NFD').replace(/\p{M}/gu, '');
        if ([...base].every((part) => this.characters.has(part.codePointAt(0)!))) return base;
        return TRANSLITERATIONS[character] ?? '?';
      })
      .join('');
  }

  private wrap(text: string, font: PDFFont, size: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= TEXT_WIDTH) line = candidate;
      else {
        if (line) lines.push(line);
        line = this.breakLongWord(word, font, size, lines);
      }
    }
    if (line) lines.push(line);
    return lines;
  }

  /** A word wider than a line (a hash, a long address) is cut; the full lines go to `lines`, the rest is returned. */
  private breakLongWord(word: string, font: PDFFont, size: number, lines: string[]): string {
    let line = '';
    for (const character of word) {
      if (line && font.widthOfTextAtSize(line + character, size) > TEXT_WIDTH) {
        lines.push(line);
        line = '';
      }
      line += character;
    }
    return line;
  }
}

/** The signed mandate as a PDF: parties, text, signature, the time in Europe/Berlin and the content hash. */
export async function renderMandatePdf(mandate: SignedMandate): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  describeDocument(pdf, mandate);
  const flow = new PdfFlow(pdf, {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
    italic: await pdf.embedFont(StandardFonts.HelveticaOblique),
  });
  flow.text(mandate.text.title, { font: 'bold', size: 18, after: 14 });
  writeParty(flow, 'Vollmachtgeber/in', mandate.customer);
  writeParty(flow, 'Bevollmächtigter Versicherungsmakler', mandate.broker);
  for (const paragraph of mandate.text.paragraphs) {
    paragraph.forEach((line, index) =>
      flow.text(line, { font: 'regular', size: 10.5, after: index === paragraph.length - 1 ? 8 : 0 }),
    );
  }
  await writeSignature(flow, mandate);
  flow.text(`Prüfsumme des Inhalts (SHA-256): ${mandate.contentSha256}`, {
    font: 'regular',
    size: 8,
    color: MUTED,
  });
  return pdf.save();
}

function describeDocument(pdf: PDFDocument, mandate: SignedMandate): void {
  pdf.setTitle(`${mandate.text.title}: ${mandate.customer.name}`);
  pdf.setAuthor(mandate.customer.name);
  pdf.setSubject(`${mandate.text.title} für ${mandate.broker.name}`);
  pdf.setCreator('Broker platform: signing page');
  pdf.setLanguage('de-DE');
  pdf.setCreationDate(mandate.signedAt);
  pdf.setModificationDate(mandate.signedAt);
}

function writeParty(flow: PdfFlow, role: string, party: Party): void {
  flow.text(role, { font: 'bold', size: 9, color: MUTED });
  flow.text(party.name, { font: 'regular', size: 11, after: party.address ? 0 : 10 });
  if (party.address) flow.text(party.address, { font: 'regular', size: 11, after: 10 });
}

async function writeSignature(flow: PdfFlow, mandate: SignedMandate): Promise<void> {
  const { image, typedName } = mandate.signature;
  flow.ensure(SIGNATURE_BOX.height + 100);
  flow.space(10);
  flow.text('Unterschrift', { font: 'bold', size: 9, color: MUTED, after: 4 });
  if (image) await flow.image(image);
  else if (typedName) flow.text(typedName, { font: 'italic', size: 20 });
  flow.rule(SIGNATURE_BOX.width);
  flow.text(mandate.customer.name, { font: 'regular', size: 10 });
  if (image && typedName) flow.text(`Name wie eingegeben: ${typedName}`, { font: 'regular', size: 10 });
  const how = image ? 'auf dem Bildschirm gezeichnet' : 'durch Eingabe des Namens';
  flow.text(`Elektronisch unterschrieben (${how}) am ${berlinDateTime(mandate.signedAt)}, Europe/Berlin`, {
    font: 'regular',
    size: 10,
    after: 14,
  });
}
