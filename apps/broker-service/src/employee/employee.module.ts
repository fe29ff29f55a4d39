import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { AddressRepository } from './addresses/address.repository.js';
import { AddressService } from './addresses/address.service.js';
import { AddressesController } from './addresses/addresses.controller.js';
import { ContactRepository } from './contacts/contact.repository.js';
import { ContactService } from './contacts/contact.service.js';
import { ContactsController } from './contacts/contacts.controller.js';
import { CustomerRepository } from './customers/customer.repository.js';
import { CustomerService } from './customers/customer.service.js';
import { CustomersController } from './customers/customers.controller.js';
import { DetailRepository } from './details/detail.repository.js';
import { DetailService } from './details/detail.service.js';
import { DetailsController } from './details/details.controller.js';
import { EmployeeScopeGuard } from './employee-scope.js';
import { EnumerationsController } from './enumerations.controller.js';
import { RecordsController } from './records/records.controller.js';
import { RecordsRepository } from './records/records.repository.js';
import { RecordsService } from './records/records.service.js';
import { SEARCH_ADMISSION, SearchAdmission } from './search/search-admission.js';
import { SEARCH_CONNECTIONS } from './search/search-connections.js';
import { SearchController } from './search/search.controller.js';
import { SearchRepository } from './search/search.repository.js';
import { SearchService } from './search/search.service.js';

/**
 * The employee service: /service/{tenant}/employee/v1/rest. Controllers with fixed path segments under
 * `kunden` (details, _search) come before the one taking `kunden/{Kunde-Id}`.
 */
@Module({
  controllers: [
    EnumerationsController,
    DetailsController,
    SearchController,
    CustomersController,
    AddressesController,
    ContactsController,
    RecordsController,
  ],
  providers: [
    EmployeeScopeGuard,
    CustomerRepository,
    CustomerService,
    AddressRepository,
    AddressService,
    ContactRepository,
    ContactService,
    RecordsRepository,
    RecordsService,
    DetailRepository,
    DetailService,
    SearchRepository,
    SearchService,
  ],
})
export class EmployeeModule implements NestModule {
  static forRoot(settings: EmployeeSettings): DynamicModule {
    return {
      module: EmployeeModule,
      providers: [
        { provide: SEARCH_CONNECTIONS, useValue: settings.searchConnections },
        {
          provide: SEARCH_ADMISSION,
          useValue: {
            inProgress: settings.searchConnections,
            maxWaiting: settings.searchQueueLength,
            maxWaitMs: settings.searchQueueWaitMs,
          },
        },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(SearchAdmission).forRoutes(SearchController);
  }
}

export interface EmployeeSettings {
  searchConnections: number;
  searchQueueLength: number;
  searchQueueWaitMs: number;
}
