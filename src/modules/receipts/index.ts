// The receipts module's public surface: other modules and the composition root import only this file.
export { ReceiptsApiModule, ReceiptsModule } from './receipts.module';
export { ReceiptsService } from './application/receipts.service';
export { RECEIPTS_FACTS } from './facts';
