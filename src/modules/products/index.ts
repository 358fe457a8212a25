// The products module's public surface: the composition root imports only this file.
export { ProductsModule } from './products.module';
export { ProductsController } from './api/products.controller';
export { PRODUCTS_FACTS } from './facts';
