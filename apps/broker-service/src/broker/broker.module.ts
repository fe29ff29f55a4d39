import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BrokerAdministration } from '@broker/administration';
import { CompanyListRepository } from './lists/company-list.repository.js';
import { CompanyListService } from './lists/company-list.service.js';
import { ListsController } from './lists/lists.controller.js';
import { SubBrokerRepository } from './sub-brokers/sub-broker.repository.js';
import { SubBrokerService } from './sub-brokers/sub-broker.service.js';
import { SubBrokersController } from './sub-brokers/sub-brokers.controller.js';

/** The broker service: /service/{tenant}/broker/v1/rest (sub-broker editing and lists). */
@Module({
  controllers: [ListsController, SubBrokersController],
  providers: [
    CompanyListRepository,
    CompanyListService,
    SubBrokerRepository,
    SubBrokerService,
    {
      provide: BrokerAdministration,
      useFactory: (db: DataSource) => new BrokerAdministration(db),
      inject: [DataSource],
    },
  ],
})
export class BrokerModule {}
