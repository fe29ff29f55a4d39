import { Module } from '@nestjs/common';
import { CompanyListRepository } from './lists/company-list.repository.js';
import { CompanyListService } from './lists/company-list.service.js';
import { ListsController } from './lists/lists.controller.js';
import { SubBrokerRepository } from './sub-brokers/sub-broker.repository.js';
import { SubBrokerService } from './sub-brokers/sub-broker.service.js';
import { SubBrokersController } from './sub-brokers/sub-brokers.controller.js';

/** The broker service: /service/{tenant}/broker/v1/rest (sub-broker editing and lists). */
@Module({
  controllers: [ListsController, SubBrokersController],
  providers: [CompanyListRepository, CompanyListService, SubBrokerRepository, SubBrokerService],
})
export class BrokerModule {}
