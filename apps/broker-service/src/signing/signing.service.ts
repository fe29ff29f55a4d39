import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { formatDate } from '@broker/datetime';
import type { CustomerClient } from '../customer-pages/link-page.controller.js';
import { renderMandatePdf } from './mandate-pdf.js';
import { mandateText, type MandateText, type Party } from './mandate-text.js';
import { checkSignature, type SignatureProblem, type SigningForm } from './signature-form.js';
import { signedMandate, type SignedMandate } from './signed-mandate.js';
import { type MandateRecord, SigningRepository, type SigningLink } from './signing.repository.js';

/** What a signature link's page shows. */
export interface SigningView {
  link: SigningLink;
  customer: Party;
  broker: Party;
  text: MandateText;
}

export type LinkOutcome = { state: 'unknown' } | { state: 'open' | 'used' | 'expired'; view: SigningView };

export type SignOutcome =
  | Exclude<LinkOutcome, { state: 'open' }>
  | { state: 'invalid'; view: SigningView; problems: SignatureProblem[] }
  | { state: 'signed'; view: SigningView; mandate: SignedMandate };

/** The customer's side of sendUnterschrifftenlink: showing the mandate behind a link and signing it once. */
@Injectable()
export class SigningService {
  constructor(
    private readonly db: DataSource,
    private readonly links: SigningRepository,
  ) {}

  async open(tenantCode: string, token: string): Promise<LinkOutcome> {
    const link = await this.links.find(this.db.manager, tenantCode, token);
    return link ? { state: link.state, view: viewOf(link) } : { state: 'unknown' };
  }

  /**
   * Signs in one transaction with the link's row locked, so that of two submits racing for one link exactly one
   * stores a mandate and the other finds the link used. An invalid form writes nothing.
   */
  async sign(tenantCode: string, form: SigningForm, client: CustomerClient): Promise<SignOutcome> {
    const checked = await checkSignature(form);
    return this.db.transaction(async (tx) => {
      const link = await this.links.find(tx, tenantCode, form.token, true);
      if (!link) return { state: 'unknown' };
      const view = viewOf(link);
      if (link.state !== 'open') return { state: link.state, view };
      if ('problems' in checked) return { state: 'invalid', view, problems: checked.problems };
      const mandate = signedMandate({
        text: view.text,
        customer: view.customer,
        broker: view.broker,
        signature: checked.signature,
        signedAt: new Date(),
      });
      await this.links.storeSignedMandate(tx, link, await mandateRecord(link, mandate, client));
      return { state: 'signed', view, mandate };
    });
  }
}

function viewOf(link: SigningLink): SigningView {
  const { customer, broker } = link;
  const customerName =
    customer.personType === 'juristisch'
      ? customer.companyName
      : [customer.title, customer.firstName, customer.lastName].filter(Boolean).join(' ');
  const parties = {
    customer: { name: customerName || `Kunde Nr. ${link.customerId}`, address: postalAddress(customer) },
    broker: { name: broker.name, address: postalAddress(broker) },
  };
  return { link, ...parties, text: mandateText(link.template, parties.customer, parties.broker) };
}

function postalAddress(address: { street: string | null; postalCode: string | null; city: string | null }) {
  const place = [address.postalCode, address.city].filter(Boolean).join(' ');
  return [address.street, place].filter(Boolean).join(', ');
}

async function mandateRecord(
  link: SigningLink,
  mandate: SignedMandate,
  client: CustomerClient,
): Promise<MandateRecord> {
  const { image, typedName } = mandate.signature;
  return {
    title: mandate.text.title,
    fileName: `maklervollmacht-${link.customerId}-${formatDate(mandate.signedAt)}.pdf`,
    pdf: await renderMandatePdf(mandate),
    signedAt: mandate.signedAt,
    audit: {
      clientAddress: client.address,
      userAgent: client.userAgent,
      details: {
        drawn: image !== null,
        typedName,
        contentSha256: mandate.contentSha256,
      },
    },
  };
}
