import { GrantsModule } from '../auth/grants';
import { Module } from '@nestjs/common';
import { CreateOnceService, IdempotencyModule } from '../idempotency';
import { ReceiptsModule } from '../receipts';
import { ProductsController } from './api/products.controller';
import { ProductsService } from './application/products.service';
import { ProductRepository } from './domain/product.repository';
import { TypeOrmProductRepository } from './infrastructure/typeorm-product.repository';

@Module({
  imports: [IdempotencyModule, ReceiptsModule, GrantsModule],
  controllers: [ProductsController],
  providers: [ProductsService, CreateOnceService, { provide: ProductRepository, useClass: TypeOrmProductRepository }],
})
export class ProductsModule {}
