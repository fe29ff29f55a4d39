import { PngEmbedder } from 'pdf-lib';
import type { LinkForm } from '../customer-pages/link-page.controller.js';
import type { FormProblem } from '../customer-pages/page-shell.js';

/** The signing form's own fields as posted (urlencoded); absent fields are empty strings. */
export interface SignatureFields {
  /** The drawn signature as a PNG data URL, empty when nothing was drawn. */
  signature: string;
  typedName: string;
  consent: boolean;
}

export type SigningForm = LinkForm & SignatureFields;

/** How the customer signed: a drawing, a typed name, or both. */
export interface Signature {
  image: Uint8Array | null;
  typedName: string | null;
}

export type SignatureField = 'signature' | 'typedName' | 'consent';

/** What is wrong with the form, in the customer's language, with the field to mark. */
export type SignatureProblem = FormProblem<SignatureField>;
/** The pad's bitmap in pixels (2:1 like its box); the drawing arrives in this size. */
export const SIGNATURE_PAD = { width: 1000, height: 500 };
/** Largest drawn signature (the PNG); a signature on the pad is a few dozen KiB. */
const SIGNATURE_MAX_BYTES = 256 * 1024;
/** Larger than the pad, for other clients; limits what a small file may unpack into. */
const SIGNATURE_MAX_WIDTH = 3000;
const SIGNATURE_MAX_HEIGHT = 1500;
/** Animation chunks: a decoder would size its buffers from their frames too. */
const REFUSED_CHUNKS = new Set(['IHDR', 'acTL', 'fcTL', 'fdAT']);
export const TYPED_NAME_MAX_LENGTH = 200;

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const MESSAGES = {
  consent: 'Bitte bestätigen Sie mit dem Häkchen, dass Sie die Maklervollmacht erteilen.',
  missing: 'Bitte unterschreiben Sie im Unterschriftenfeld oder geben Sie Ihren vollständigen Namen ein.',
  unreadable: 'Die gezeichnete Unterschrift konnte nicht gelesen werden. Bitte unterschreiben Sie erneut.',
  oversize: 'Die gezeichnete Unterschrift ist zu groß. Bitte löschen Sie sie und unterschreiben Sie erneut.',
  shortName: 'Bitte geben Sie Ihren vollständigen Namen ein (Vor- und Nachname).',
  longName: `Der eingegebene Name ist zu lang (höchstens ${TYPED_NAME_MAX_LENGTH} Zeichen).`,
};

/** The signature the form carries, or what is wrong with it. Nothing about the link is checked here. */
export async function checkSignature(
  form: SigningForm,
): Promise<{ signature: Signature } | { problems: SignatureProblem[] }> {
  const problems: SignatureProblem[] = [];
  const image = form.signature ? await signatureImage(form.signature) : { bytes: null };
  if ('problem' in image) problems.push({ field: 'signature', message: image.problem });
  const typedName = normalisedName(form.typedName);
  const nameProblem = typedName === null ? null : typedNameProblem(typedName);
  if (nameProblem) problems.push({ field: 'typedName', message: nameProblem });
  if (!form.signature && typedName === null) problems.push({ field: 'signature', message: MESSAGES.missing });
  if (!form.consent) problems.push({ field: 'consent', message: MESSAGES.consent });
  if (problems.length > 0 || 'problem' in image) return { problems };
  return { signature: { image: image.bytes, typedName } };
}

/** The PNG bytes of a data URL, or why they cannot be a signature. */
async function signatureImage(dataUrl: string): Promise<{ bytes: Uint8Array } | { problem: string }> {
  const base64 = PNG_DATA_URL.exec(dataUrl)?.[1];
  if (!base64) return { problem: MESSAGES.unreadable };
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > SIGNATURE_MAX_BYTES) return { problem: MESSAGES.oversize };
  const structureProblem = pngStructureProblem(bytes);
  if (structureProblem) return { problem: structureProblem };
  try {
    await PngEmbedder.for(bytes);
  } catch {
    return { problem: MESSAGES.unreadable };
  }
  return { bytes };
}

/**
 * Walks the PNG's chunks before anything decodes it: one header, first, of a size within the limits (a small
 * file must not unpack into a huge bitmap), no animation, an end chunk, nothing cut off.
 */
function pngStructureProblem(bytes: Buffer): string | null {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_MAGIC)) return MESSAGES.unreadable;
  let offset = 8;
  let chunks = 0;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const dataStart = offset + 8;
    if (dataStart + length + 4 > bytes.length) return MESSAGES.unreadable;
    if (chunks === 0) {
      if (type !== 'IHDR' || length !== 13) return MESSAGES.unreadable;
      const width = bytes.readUInt32BE(dataStart);
      const height = bytes.readUInt32BE(dataStart + 4);
      if (width > SIGNATURE_MAX_WIDTH || height > SIGNATURE_MAX_HEIGHT) return MESSAGES.oversize;
    } else if (REFUSED_CHUNKS.has(type)) return MESSAGES.unreadable;
    if (type === 'IEND') return null;
    offset = dataStart + length + 4;
    chunks += 1;
  }
  return MESSAGES.unreadable;
}

function normalisedName(text: string): string | null {
  const name = text.normalize('NFC').replace(/\s+/g, ' ').trim();
  return name === '' ? null : name;
}

function typedNameProblem(name: string): string | null {
  if (name.length > TYPED_NAME_MAX_LENGTH) return MESSAGES.longName;
  // Control and format characters (bidirectional overrides among them) have no place in a name.
  if (/[\p{Cc}\p{Cf}]/u.test(name) || (name.match(/\p{L}/gu) ?? []).length < 2) return MESSAGES.shortName;
  return null;
}
