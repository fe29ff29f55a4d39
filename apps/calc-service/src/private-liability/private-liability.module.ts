import { type DynamicModule, Module } from '@nestjs/common';
import { privateLiabilityCatalogProvider } from './private-liability-catalog.js';
import { ANSWER_CACHE_ENTRIES, PrivateLiabilityCalculator } from './private-liability-calculator.js';
import { PrivateLiabilityController } from './private-liability.controller.js';

/** The private-liability calculator: its catalog and its route. Another calculator is another such module. */
@Module({})
export class PrivateLiabilityModule {
  static forRoot(settings: { catalogPath: string; answerCacheEntries: number }): DynamicModule {
    return {
      module: PrivateLiabilityModule,
      controllers: [PrivateLiabilityController],
      providers: [
        privateLiabilityCatalogProvider(settings.catalogPath),
        { provide: ANSWER_CACHE_ENTRIES, useValue: settings.answerCacheEntries },
        PrivateLiabilityCalculator,
      ],
    };
  }
}
