import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { IdempotencyKey, IdempotencyKeyGuard } from '../../idempotency';
import { idempotencyRecordPrefetch } from '../../idempotency';
import { type ProductCreatedBody, ProductsService } from '../application/products.service';
import { CreateProductRequestDto } from './create-product.request.dto';

@ApiTags('products')
@Controller(PARTNER_BASES.map((base) => `${base}/products`))
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @HttpCode(201)
  @PartnerRoute('products:create', { prefetch: idempotencyRecordPrefetch })
  @UseGuards(IdempotencyKeyGuard)
  @ApiOperation({ summary: 'Create a product; exactly once per Idempotency-Key' })
  create(
    @Caller() caller: CallerContext,
    @IdempotencyKey() key: string,
    @Body() body: CreateProductRequestDto,
  ): Promise<ProductCreatedBody> {
    const { code, name, description, kind, unit, unit_price_minor } = body;
    return this.products.create(caller, key, { code, name, description, kind, unit, unit_price_minor });
  }
}
