import { Inject, Injectable } from '@nestjs/common';
import { BoundedCache } from '@broker/auth';
import { PrivateLiabilityCalculationRequest } from '@broker/contracts';
import { createValidationPipe } from '@broker/errors';
import {
  berlinCalendarDate,
  calculatePrivateLiability,
  type PrivateLiabilityCatalog,
} from '@broker/tariff-engine';
import { calculationParameters, engineRequest } from './calculation-parameters.js';
import { CalculationResponseWriter } from './calculation-response.js';
import { plainlyValidRequest } from './plainly-valid-request.js';
import { PRIVATE_LIABILITY_CATALOG } from './private-liability-catalog.js';

export const ANSWER_CACHE_ENTRIES = Symbol('ANSWER_CACHE_ENTRIES');

/**
 * Validates a calculation request and answers it with the response JSON. The answer depends only on the catalog
 * (fixed for the process), the body and the calendar day in Europe/Berlin (ages), so answers are remembered by
 * exactly those: a body sent again on the same day was validated before and gets the same bytes back without
 * validation, calculation or serialisation. Comparison calculators send the same request again whenever a
 * user returns to a result page or changes the sort order.
 */
@Injectable()
export class PrivateLiabilityCalculator {
  private readonly answers: BoundedCache<string, Buffer>;
  private readonly validation = createValidationPipe();
  private readonly responses = new CalculationResponseWriter();
  private today = { minute: Number.NaN, day: '' };

  constructor(
    @Inject(PRIVATE_LIABILITY_CATALOG) private readonly catalog: PrivateLiabilityCatalog,
    @Inject(ANSWER_CACHE_ENTRIES) cacheEntries: number,
  ) {
    this.answers = new BoundedCache(cacheEntries);
  }

  /** The response bytes (UTF-8 JSON): kept as bytes, so a remembered answer is written without encoding. */
  async answer(body: unknown, now = new Date()): Promise<Buffer> {
    const key = `${this.berlinDay(now)} ${JSON.stringify(body)}`;
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const request = plainlyValidRequest(body) ?? (await this.validated(body));
    const parameters = calculationParameters(request);
    const result = calculatePrivateLiability(this.catalog, engineRequest(parameters), now);
    const answer = this.responses.write(parameters, result);
    this.answers.set(key, answer);
    return answer;
  }

  /** The request as the validation pipe gives it, or its 400 naming every failing field. */
  private async validated(body: unknown): Promise<PrivateLiabilityCalculationRequest> {
    return (await this.validation.transform(body, {
      type: 'body',
      metatype: PrivateLiabilityCalculationRequest,
    })) as PrivateLiabilityCalculationRequest;
  }

  /** The calendar day in Europe/Berlin, worked out once a minute (the day changes on a whole minute). */
  private berlinDay(now: Date): string {
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute !== this.today.minute) {
      const { year, month, day } = berlinCalendarDate(now);
      this.today = { minute, day: `${year}-${month}-${day}` };
    }
    return this.today.day;
  }
}
