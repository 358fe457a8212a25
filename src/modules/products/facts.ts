import { declareModuleFacts, receiptsOf } from '../../shared/module-facts';
import { PRODUCT_CREATE } from './domain/product';
import { ProductsPurge } from './sql';

/** What the products module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const PRODUCTS_FACTS = declareModuleFacts({
  module: 'products',
  scopes: {
    'products:create': {
      consent: {
        en: { title: 'Create products', text: 'add products to your product list' },
        da: { title: 'Oprette varer', text: 'tilføje varer til din vareliste' },
      },
      openapi: 'Create products',
    },
  },
  receipts: receiptsOf(PRODUCT_CREATE),
  openapi: { tags: { products: 'Products' } },
  purge: { parts: ProductsPurge, refersTo: ['organizations'] },
  tables: ['products'],
});
