import { Module } from '@nestjs/common';
import { EmployeeScopeGuard } from '../employee-scope.js';
import { SignatureLinkService } from './signature-link.service.js';
import { SignatureLinksController } from './signature-links.controller.js';

@Module({
  controllers: [SignatureLinksController],
  providers: [EmployeeScopeGuard, SignatureLinkService],
})
export class SignatureLinksModule {}
