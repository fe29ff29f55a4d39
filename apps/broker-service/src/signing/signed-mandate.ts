import { sha256Hex } from '../notifications/link-tokens.js';
import type { MandateText, Party } from './mandate-text.js';
import type { Signature } from './signature-form.js';

/** What the customer signed, when, and how; `contentSha256` fingerprints all of it. */
export interface SignedMandate {
  text: MandateText;
  customer: Party;
  broker: Party;
  signature: Signature;
  signedAt: Date;
  contentSha256: string;
}

/**
 * The content hash is the sha256 of a JSON document of the text, both parties, the instant (ISO 8601, UTC), the
 * typed name and the sha256 of the drawing: everything the PDF shows except the hash itself.
 */
export function signedMandate(parts: Omit<SignedMandate, 'contentSha256'>): SignedMandate {
  const content = {
    title: parts.text.title,
    paragraphs: parts.text.paragraphs,
    customer: parts.customer,
    broker: parts.broker,
    signedAt: parts.signedAt.toISOString(),
    typedName: parts.signature.typedName,
    drawingSha256: parts.signature.image ? sha256Hex(parts.signature.image) : null,
  };
  return { ...parts, contentSha256: sha256Hex(JSON.stringify(content)) };
}
