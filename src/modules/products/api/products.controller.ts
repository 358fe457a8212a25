import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { BODY_ERRORS, IDEMPOTENCY_ERRORS, PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { type CreatedBody, Idempotent, IdempotencyKey } from '../../idempotency';
import { idempotencyRecordPrefetch } from '../../idempotency';
import { ProductsService } from '../application/products.service';
import { CreateProductRequestDto } from './create-product.request.dto';
import { CREATE_PRODUCT_SCHEMAS } from './products.openapi';

@ApiTags('products')
@Controller(PARTNER_BASES.map((base) => `${base}/products`))
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @HttpCode(201)
  @PartnerRoute('products:create', { prefetch: idempotencyRecordPrefetch })
  @Idempotent()
  @PartnerOperation({
    operationId: 'createProduct',
    summary: 'Create a product',
    success: partnerJson(201, 'Created, or a replay of the first creation with this Idempotency-Key.', ref('ProductCreateResult')),
    errors: [...BODY_ERRORS, ...IDEMPOTENCY_ERRORS, 'resource_conflict'],
    schemas: CREATE_PRODUCT_SCHEMAS,
  })
  create(@Caller() caller: CallerContext, @IdempotencyKey() key: string, @Body() body: CreateProductRequestDto): Promise<CreatedBody> {
    const { code, name, description, kind, unit, unit_price_minor } = body;
    return this.products.create(caller, key, { code, name, description, kind, unit, unit_price_minor });
  }
}
