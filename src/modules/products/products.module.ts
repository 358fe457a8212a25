import { AccessModule } from '../access/access.module';
import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { ReceiptsModule } from '../receipts/receipts.module';
import { ProductsController } from './api/products.controller';
import { ProductsService } from './application/products.service';
import { ProductRepository } from './domain/product.repository';
import { TypeOrmProductRepository } from './infrastructure/typeorm-product.repository';

@Module({
  imports: [IdempotencyModule, ReceiptsModule, AccessModule],
  controllers: [ProductsController],
  providers: [ProductsService, { provide: ProductRepository, useClass: TypeOrmProductRepository }],
})
export class ProductsModule {}
