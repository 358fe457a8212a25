import { GrantsModule } from '../auth/grants';
import { Module } from '@nestjs/common';
import { CreateOnceService, IdempotencyModule } from '../idempotency';
import { ReceiptsModule } from '../receipts';
import { ProductsController } from './api/products.controller';
import { ProductsService } from './application/products.service';
import { ProductRepository } from './domain/product.repository';
import { PgProductRepository } from './infrastructure/pg-product.repository';

@Module({
  imports: [IdempotencyModule, ReceiptsModule, GrantsModule],
  controllers: [ProductsController],
  providers: [ProductsService, CreateOnceService, { provide: ProductRepository, useClass: PgProductRepository }],
})
export class ProductsModule {}
